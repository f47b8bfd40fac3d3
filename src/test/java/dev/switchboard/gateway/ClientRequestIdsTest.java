package dev.switchboard.gateway;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ids of the gateway's requests to clients: they name the member holding the request and cannot be guessed. */
class ClientRequestIdsTest {

    private static final String MEMBER = "2f0c6a3e-9d1b-4c55-8a7e-3b6f1d2c9e40";

    @Test
    void anIdNamesItsMemberAndHasSixteenRandomBytes() {
        String id = ClientRequestIds.next(MEMBER);
        assertTrue(id.matches("switchboard-" + MEMBER + "\\.[A-Za-z0-9_-]{22}"), id);
        assertEquals(Optional.of(MEMBER), ClientRequestIds.memberOf(id));
        assertEquals(Optional.of("local"), ClientRequestIds.memberOf(ClientRequestIds.next("local")));
    }

    @Test
    void idsDoNotRepeat() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            assertTrue(ids.add(ClientRequestIds.next(MEMBER)));
        }
    }

    @Test
    void anIdNotOfTheGatewaysFormNamesNoMember() {
        for (String id : new String[]{null, "", "1", "s-sampling", "switchboard-1", "switchboard-.abc", "switchboard-a.",
                "other-a.abc"}) {
            assertEquals(Optional.empty(), ClientRequestIds.memberOf(id), id);
        }
    }

    @Test
    void aMemberNameWithADotOrNothingIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> ClientRequestIds.next("10.0.0.1"));
        assertThrows(IllegalArgumentException.class, () -> ClientRequestIds.next(""));
    }
}
