package dev.switchboard.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.EvictionConfig;
import com.hazelcast.config.EvictionPolicy;
import com.hazelcast.config.ExecutorConfig;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MaxSizePolicy;
import com.hazelcast.config.MultiMapConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.RingbufferConfig;
import io.github.bucket4j.grid.hazelcast.HazelcastProxyManager;

import java.util.List;

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
    /** What the members know of each {@code /mcp} session's streams ({@link StreamsOfSession}). */
    static final String SSE_SESSIONS = "switchboard-sse-sessions";
    /** The sessions of each caller that opened a GET stream. */
    static final String SSE_BY_SUBJECT = "switchboard-sse-by-subject";
    /** One ring per stream: {@code <prefix><session id>-<stream number>}. */
    static final String SSE_RING_PREFIX = "switchboard-sse-";
    /** The log number of each conversation's events. */
    static final String CONVERSATION_LOGS = "switchboard-conversation-logs";
    /** One ring per conversation: {@code <prefix><conversation id>}. */
    static final String CONVERSATION_RING_PREFIX = "switchboard-conversation-";
    /**
     * Ring items a stream holds beyond its replay limit: the markers of the connections that attached and the end,
     * which take places in the ring but are no events.
     */
    static final int SSE_MARKERS = 16;
    /** The executor that hands clients' answers and cancellations to the member holding the request. */
    static final String CLIENT_MESSAGES = "switchboard-client-messages";
    /** Each task only completes a future or interrupts a call on a container thread: a few threads are plenty. */
    private static final int CLIENT_MESSAGE_THREADS = 8;
    /** Where Bucket4j's serializers take their type ids (Hazelcast's own are negative). */
    private static final int BUCKET4J_TYPE_IDS = 10_000;
    private static final int SIGN_IN_TALLIES_PER_MEMBER = 200_000;
    /**
     * How long a starting member asks the listed addresses for a master before it claims to be one, when every listed
     * member is on this host: a connection there is made or refused at once, so Hazelcast's 5 s (meant for a network)
     * would only delay every start.
     */
    static final int LOOPBACK_JOIN_SECONDS = 1;

    private MemberConfig() {
    }

    /**
     * @param idempotencyKeys keys kept per member ({@code switchboard.gateway.idempotency.capacity})
     * @param streams         how much of the shared SSE streams is kept, and how long
     * @param loader          the application's class loader, which knows the classes of the shared values
     */
    static Config of(ClusterSettings settings, int idempotencyKeys, StreamLimits streams, ClassLoader loader) {
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
            join.getTcpIpConfig().setEnabled(true).setMembers(settings.members())
                    .setConnectionTimeoutSeconds(onThisHostOnly(settings.members())
                            ? LOOPBACK_JOIN_SECONDS : join.getTcpIpConfig().getConnectionTimeoutSeconds());
        }

        HazelcastProxyManager.addCustomSerializers(config.getSerializationConfig(), BUCKET4J_TYPE_IDS);
        config.addMapConfig(bounded(IDEMPOTENCY_KEYS, idempotencyKeys));
        config.addMapConfig(bounded(SIGN_IN_TALLIES, SIGN_IN_TALLIES_PER_MEMBER));
        addStreams(config, streams);
        config.addExecutorConfig(new ExecutorConfig(CLIENT_MESSAGES, CLIENT_MESSAGE_THREADS).setStatisticsEnabled(false));
        return config;
    }

    /** True when every {@code host:port} names this host by a loopback address ({@code 127.x}, {@code ::1}, localhost). */
    static boolean onThisHostOnly(List<String> members) {
        return !members.isEmpty() && members.stream().allMatch(member -> {
            String host = member.startsWith("[") ? member.substring(1, Math.max(1, member.indexOf(']')))
                    : member.chars().filter(c -> c == ':').count() > 1 ? member : member.split(":", 2)[0];
            return host.equals("localhost") || host.startsWith("127.") || host.equals("::1");
        });
    }

    /**
     * The rings of {@code /mcp} streams and conversations: bounded to their replay limits, items expiring after the
     * time they are kept (a stream's with its session's idle timeout, a conversation's with its retention); the entries
     * that say what the rings are expire once unused for that long, taking their rings with them.
     */
    private static void addStreams(Config config, StreamLimits streams) {
        config.addRingBufferConfig(new RingbufferConfig(SSE_RING_PREFIX + "*")
                .setCapacity(streams.sseEvents() + SSE_MARKERS).setTimeToLiveSeconds(seconds(streams.sseKept())));
        config.addMapConfig(new MapConfig(SSE_SESSIONS).setMaxIdleSeconds(seconds(streams.sseKept())));
        config.addMultiMapConfig(new MultiMapConfig(SSE_BY_SUBJECT).setValueCollectionType(MultiMapConfig.ValueCollectionType.SET));
        config.addRingBufferConfig(new RingbufferConfig(CONVERSATION_RING_PREFIX + "*")
                .setCapacity(streams.conversationEvents()).setTimeToLiveSeconds(seconds(streams.conversationKept())));
        config.addMapConfig(new MapConfig(CONVERSATION_LOGS).setMaxIdleSeconds(seconds(streams.conversationKept())));
    }

    private static int seconds(java.time.Duration duration) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, duration.toSeconds()));
    }

    /** Entries expire by their own time to live; beyond {@code perMember} the least recently used go first. */
    private static MapConfig bounded(String name, int perMember) {
        return new MapConfig(name).setEvictionConfig(new EvictionConfig().setEvictionPolicy(EvictionPolicy.LRU)
                .setMaxSizePolicy(MaxSizePolicy.PER_NODE).setSize(Math.max(1, perMember)));
    }
}
