package dev.switchboard.cluster;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClusterRequirementsTest {

    @Test
    void aMemberOnMySqlWithBothKindsOfKeysMayStart() {
        assertEquals(List.of(), ClusterRequirements.unmet("MySQL", true, true));
        assertEquals(List.of(), ClusterRequirements.unmet("MariaDB", true, true));
    }

    @Test
    void eachUnmetNeedIsNamedOnItsOwn() {
        assertEquals(1, ClusterRequirements.unmet("H2", true, true).size());
        assertTrue(ClusterRequirements.unmet("H2", true, true).get(0).contains("embedded H2"));
        assertTrue(ClusterRequirements.unmet("MySQL", false, true).get(0).contains("SWITCHBOARD_SECRET_KEYS"));
        assertTrue(ClusterRequirements.unmet("MySQL", true, false).get(0).contains("SWITCHBOARD_AUDIT_SECRETS"));
    }

    @Test
    void theRefusalNamesEveryUnmetNeedAtOnce() {
        String refusal = ClusterRequirements.refusal(ClusterRequirements.unmet("H2", false, false));
        assertTrue(refusal.startsWith("Cluster mode (switchboard.cluster.members) refused to start: "), refusal);
        assertTrue(refusal.contains("embedded H2") && refusal.contains("SWITCHBOARD_SECRET_KEYS")
                && refusal.contains("SWITCHBOARD_AUDIT_SECRETS") && refusal.endsWith("See docs/cluster.md."), refusal);
    }
}
