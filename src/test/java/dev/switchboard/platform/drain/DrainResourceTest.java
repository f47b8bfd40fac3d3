package dev.switchboard.platform.drain;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Who may drain a member by request; the HTTP answer itself is shown by {@code it.cluster.ClusterDrainIT}. */
class DrainResourceTest {

    @Test
    void withoutADrainTokenDrainingByRequestIsOff() {
        for (Optional<String> unset : List.of(Optional.<String>empty(), Optional.of(" "))) {
            DrainResource.Refusal refusal = DrainResource.refusal(unset, "anything").orElseThrow();
            assertEquals(new DrainResource.Refusal(404, "Draining by request is off: set SWITCHBOARD_DRAIN_TOKEN "
                    + "(switchboard.drain.token) to allow POST /api/drain", "not_found_error", "drain_off"), refusal);
        }
    }

    @Test
    void aMissingOrWrongTokenIsRefused() {
        for (String presented : new String[]{null, "", "s3cret-drai", "s3cret-drain ", "S3CRET-DRAIN"}) {
            assertEquals(Optional.of(new DrainResource.Refusal(403,
                    "X-Switchboard-Drain-Token is missing or does not match SWITCHBOARD_DRAIN_TOKEN", "permission_error",
                    "drain_token_mismatch")), DrainResource.refusal(Optional.of("s3cret-drain"), presented), "token " + presented);
        }
    }

    @Test
    void theRightTokenIsLetThrough() {
        assertTrue(DrainResource.refusal(Optional.of("s3cret-drain"), "s3cret-drain").isEmpty());
    }
}
