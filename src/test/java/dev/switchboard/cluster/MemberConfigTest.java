package dev.switchboard.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemberConfigTest {

    static final ClusterSettings LISTED = new ClusterSettings(List.of("10.0.0.1:5701", "10.0.0.2:5701"), Optional.empty(),
            5702, Optional.of("10.0.0.*"), "prod");
    static final StreamLimits LIMITS = new StreamLimits(100, Duration.ofMinutes(30), 256, Duration.ofMinutes(30));

    @Test
    void membersAreFoundFromTheListOnlyAndNothingCallsHome() {
        Config config = MemberConfig.of(LISTED, 500, LIMITS, getClass().getClassLoader());
        JoinConfig join = config.getNetworkConfig().getJoin();
        assertTrue(join.getTcpIpConfig().isEnabled());
        assertEquals(List.of("10.0.0.1:5701", "10.0.0.2:5701"), join.getTcpIpConfig().getMembers());
        assertFalse(join.getMulticastConfig().isEnabled());
        assertFalse(join.getAutoDetectionConfig().isEnabled());
        assertFalse(join.getKubernetesConfig().isEnabled());
        assertEquals("prod", config.getClusterName());
        assertEquals(5702, config.getNetworkConfig().getPort());
        assertFalse(config.getNetworkConfig().isPortAutoIncrement());
        assertTrue(config.getNetworkConfig().getInterfaces().isEnabled());
        assertEquals("false", config.getProperty("hazelcast.phone.home.enabled"));
        assertEquals("false", config.getProperty("hazelcast.shutdownhook.enabled"));
        assertEquals(500, config.getMapConfig(MemberConfig.IDEMPOTENCY_KEYS).getEvictionConfig().getSize());
        assertEquals(5, join.getTcpIpConfig().getConnectionTimeoutSeconds(), "Hazelcast's own, for members on a network");
    }

    @Test
    void membersAllOnThisHostAskForAMasterOneSecondOnly() {
        ClusterSettings local = new ClusterSettings(List.of("127.0.0.1:5701", "localhost:5702", "[::1]:5703"),
                Optional.empty(), 5701, Optional.of("127.0.0.1"), "it");
        assertEquals(1, MemberConfig.of(local, 10, LIMITS, getClass().getClassLoader()).getNetworkConfig().getJoin()
                .getTcpIpConfig().getConnectionTimeoutSeconds());
        assertTrue(MemberConfig.onThisHostOnly(List.of("127.0.0.2:5701", "::1")));
        assertFalse(MemberConfig.onThisHostOnly(List.of("127.0.0.1:5701", "10.0.0.2:5701")), "one on another host");
        assertFalse(MemberConfig.onThisHostOnly(List.of("localhost.example.org:5701")));
        assertFalse(MemberConfig.onThisHostOnly(List.of()));
    }

    @Test
    void aKubernetesServiceReplacesTheList() {
        ClusterSettings kubernetes = new ClusterSettings(List.of(), Optional.of("sb.default.svc.cluster.local"), 5701,
                Optional.empty(), "switchboard");
        JoinConfig join = MemberConfig.of(kubernetes, 10, LIMITS, getClass().getClassLoader()).getNetworkConfig().getJoin();
        assertTrue(join.getKubernetesConfig().isEnabled());
        assertEquals("sb.default.svc.cluster.local", join.getKubernetesConfig().getProperty("service-dns"));
        assertFalse(join.getTcpIpConfig().isEnabled());
        assertTrue(kubernetes.enabled());
        assertFalse(new ClusterSettings(List.of(), Optional.empty(), 5701, Optional.empty(), "switchboard").enabled(),
                "no members, no service: a single instance");
    }
}
