package dev.switchboard.gateway;

import dev.switchboard.backend.tools.BackendNames;
import dev.switchboard.backend.tools.GatewayToolName;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Backend names, tool names and cursors: the pure parts of aggregation. */
class GatewayNamingTest {

    @Test
    void backendNamesNeverHoldTheSeparator() {
        assertEquals("my_server", BackendNames.sanitise("my server"));
        assertEquals("a_b", BackendNames.sanitise("a__b"));
        assertEquals("files.v2-x", BackendNames.sanitise("files.v2-x"));
        assertEquals("x", BackendNames.sanitise("__x__"));
        assertEquals("server", BackendNames.sanitise("中文"));
    }

    @Test
    void serversThatSanitiseAlikeAreToldApartByTheirId() {
        Map<String, String> servers = new LinkedHashMap<>();
        servers.put("3", "my server");
        servers.put("7", "my_server");
        assertEquals(Map.of("3", "my_server", "7", "my_server-7"), BackendNames.assign(servers));
    }

    @Test
    void toolNamesSplitAtTheFirstSeparator() {
        assertEquals(Optional.of(new GatewayToolName("files", "read__all")), GatewayToolName.parse("files__read__all"));
        assertTrue(GatewayToolName.parse("files").isEmpty());
        assertTrue(GatewayToolName.parse("__x").isEmpty());
        assertTrue(GatewayToolName.parse("files__").isEmpty());
        assertTrue(GatewayToolName.parse(null).isEmpty());
        assertTrue(new GatewayToolName("files", "read").isValid());
        assertFalse(new GatewayToolName("files", "read file").isValid());
        assertFalse(new GatewayToolName("files", "x".repeat(122)).isValid());
    }

    @Test
    void cursorsRoundTripAndRefuseForeignText() {
        ListCursor cursor = new ListCursor("files.v2", 17);
        assertEquals(Optional.of(cursor), ListCursor.decode(cursor.encode()));
        assertTrue(ListCursor.decode("garbage!").isEmpty());
        assertTrue(ListCursor.decode("").isEmpty());
        assertTrue(cursor.isAtOrBefore("files.v2", 17));
        assertTrue(cursor.isAtOrBefore("zeta", 0));
        assertFalse(cursor.isAtOrBefore("files.v2", 16));
        assertFalse(cursor.isAtOrBefore("alpha", 99));
    }

    @Test
    void versionsFollowTheDesign() {
        ClientVersions versions = new ClientVersions(false);
        assertEquals(Optional.of("2025-03-26"), versions.fromHeader(null));
        assertEquals(Optional.of("2025-06-18"), versions.fromHeader("2025-06-18"));
        assertTrue(versions.fromHeader("2024-11-05").isEmpty());
        assertTrue(versions.fromHeader("1999-01-01").isEmpty());
        assertEquals(Optional.of("2024-11-05"), new ClientVersions(true).fromHeader("2024-11-05"));
        assertEquals("2025-06-18", versions.negotiate("2025-06-18"));
        assertEquals("2025-11-25", versions.negotiate("2030-01-01"));
    }
}
