package dev.switchboard.cluster;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import dev.switchboard.gateway.GatewayConfiguration;
import dev.switchboard.platform.drain.Drained;
import dev.switchboard.policy.PolicyConfiguration;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * This instance's Hazelcast member: started when the application starts (after checking what a member needs, see
 * {@link ClusterRequirements}; an unmet need stops the application from starting), shut down gracefully when it stops,
 * handing its part of the shared state to the other members.
 */
@ApplicationScoped
public class HazelcastMember {

    private static final Logger LOG = Logger.getLogger(HazelcastMember.class.getName());
    static final String CHAT_REPLAY_SIZE = "switchboard.chat.events.replay-size";
    static final String CHAT_RETENTION = "switchboard.chat.events.retention";

    @Resource(lookup = "jdbc/switchboard")
    DataSource database;

    @Inject
    @ConfigProperty(name = "switchboard.secret-keys")
    Optional<String> secretKeys;

    @Inject
    @ConfigProperty(name = "switchboard.secret-key")
    Optional<String> secretKey;

    @Inject
    @ConfigProperty(name = "switchboard.audit.secrets")
    Optional<String> auditSecrets;

    @Inject
    PolicyConfiguration policy;

    @Inject
    GatewayConfiguration gateway;

    private HazelcastInstance instance;
    private boolean stopped;

    void start(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        instance();
    }

    /** The running member, started on first use. */
    synchronized HazelcastInstance instance() {
        if (stopped) {
            throw new IllegalStateException("This cluster member has left its cluster: the application is stopping");
        }
        if (instance == null) {
            List<String> unmet = ClusterRequirements.unmet(databaseProduct(), isSet(secretKeys) || isSet(secretKey),
                    isSet(auditSecrets));
            if (!unmet.isEmpty()) {
                String refusal = ClusterRequirements.refusal(unmet);
                LOG.severe(refusal);
                throw new IllegalStateException(refusal);
            }
            ClusterSettings settings = ClusterSettings.from(ConfigProvider.getConfig());
            instance = Hazelcast.newHazelcastInstance(MemberConfig.of(settings, policy.idempotencyCapacity(),
                    streamLimits(), HazelcastMember.class.getClassLoader()));
            LOG.info(() -> "Cluster member " + instance.getCluster().getLocalMember().getAddress() + " of cluster '"
                    + settings.name() + "' started; members now: " + instance.getCluster().getMembers().size());
        }
        return instance;
    }

    /** The rooms' own replay settings, which the shared streams keep to as their in-memory ones do. */
    StreamLimits streamLimits() {
        var config = ConfigProvider.getConfig();
        return new StreamLimits(gateway.replay().eventsPerStream(), gateway.settings().sessionIdleTimeout(),
                config.getOptionalValue(CHAT_REPLAY_SIZE, Integer.class).orElse(256),
                config.getOptionalValue(CHAT_RETENTION, Duration.class).orElse(Duration.ofMinutes(30)));
    }

    /** Leaves once this member's drain is over, so the calls it let finish kept the shared state they use. */
    void leaveWhenDrained(@Observes Drained drained) {
        stop();
    }

    @PreDestroy
    synchronized void stop() {
        stopped = true;
        if (instance != null) {
            LOG.info("Cluster member leaving its cluster");
            instance.shutdown();
            instance = null;
        }
    }

    private String databaseProduct() {
        try (Connection connection = database.getConnection()) {
            return connection.getMetaData().getDatabaseProductName();
        } catch (SQLException e) {
            throw new IllegalStateException("Cluster mode: the database does not answer: " + e.getMessage(), e);
        }
    }

    private static boolean isSet(Optional<String> value) {
        return value.filter(v -> !v.isBlank()).isPresent();
    }
}
