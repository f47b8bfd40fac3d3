package dev.switchboard.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.EvictionConfig;
import com.hazelcast.config.EvictionPolicy;
import com.hazelcast.config.ExecutorConfig;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MaxSizePolicy;
import com.hazelcast.config.NetworkConfig;
import io.github.bucket4j.grid.hazelcast.HazelcastProxyManager;

/**
 * The Hazelcast configuration of a member: its cluster name, port and interface, members found from the configured
 * list (TCP-IP) or the Kubernetes service's DNS answers, never by multicast or cloud auto-detection, no phone-home,
 * no JVM shutdown hook (the application stops the member), the maps of the shared state and the executor that
 * hands clients' messages between members.
 */
final class MemberConfig {

    static final String RATE_LIMIT_BUCKETS = "switchboard-rate-limit-buckets";
    static final String IDEMPOTENCY_KEYS = "switchboard-idempotency-keys";
    static final String SIGN_IN_TALLIES = "switchboard-sign-in-tallies";
    static final String SERVER_CHANGES = "switchboard-server-changes";
    /** The executor that hands clients' answers and cancellations to the member holding the request. */
    static final String CLIENT_MESSAGES = "switchboard-client-messages";
    /** Each task only completes a future or interrupts a call on a container thread: a few threads are plenty. */
    private static final int CLIENT_MESSAGE_THREADS = 8;
    /** Where Bucket4j's serializers take their type ids (Hazelcast's own are negative). */
    private static final int BUCKET4J_TYPE_IDS = 10_000;
    private static final int SIGN_IN_TALLIES_PER_MEMBER = 200_000;

    private MemberConfig() {
    }

    /**
     * @param idempotencyKeys keys kept per member ({@code switchboard.gateway.idempotency.capacity})
     * @param loader          the application's class loader, which knows the classes of the shared values
     */
    static Config of(ClusterSettings settings, int idempotencyKeys, ClassLoader loader) {
        Config config = new Config();
        config.setClusterName(settings.name());
        config.setClassLoader(loader);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.setProperty("hazelcast.logging.type", "jdk");

        NetworkConfig network = config.getNetworkConfig();
        network.setPort(settings.port()).setPortAutoIncrement(false);
        settings.networkInterface().ifPresent(address -> {
            network.getInterfaces().setEnabled(true).addInterface(address);
            config.setProperty("hazelcast.socket.bind.any", "false");
        });
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        if (settings.serviceDns().isPresent()) {
            join.getKubernetesConfig().setEnabled(true).setProperty("service-dns", settings.serviceDns().get())
                    .setProperty("service-port", String.valueOf(settings.port()));
        } else {
            join.getTcpIpConfig().setEnabled(true).setMembers(settings.members());
        }

        HazelcastProxyManager.addCustomSerializers(config.getSerializationConfig(), BUCKET4J_TYPE_IDS);
        config.addMapConfig(bounded(IDEMPOTENCY_KEYS, idempotencyKeys));
        config.addMapConfig(bounded(SIGN_IN_TALLIES, SIGN_IN_TALLIES_PER_MEMBER));
        config.addExecutorConfig(new ExecutorConfig(CLIENT_MESSAGES, CLIENT_MESSAGE_THREADS).setStatisticsEnabled(false));
        return config;
    }

    /** Entries expire by their own time to live; beyond {@code perMember} the least recently used go first. */
    private static MapConfig bounded(String name, int perMember) {
        return new MapConfig(name).setEvictionConfig(new EvictionConfig().setEvictionPolicy(EvictionPolicy.LRU)
                .setMaxSizePolicy(MaxSizePolicy.PER_NODE).setSize(Math.max(1, perMember)));
    }
}
