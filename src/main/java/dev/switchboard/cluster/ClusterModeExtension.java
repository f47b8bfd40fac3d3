package dev.switchboard.cluster;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.enterprise.inject.spi.WithAnnotations;
import org.eclipse.microprofile.config.ConfigProvider;

import java.util.logging.Logger;

/**
 * Decides at start whether this instance is a cluster member. When it is not, every bean of this room is vetoed: the
 * other rooms keep their in-memory implementations of shared state, and Hazelcast is never started. When it is, the
 * room's {@link SharedState} alternatives replace them.
 */
public class ClusterModeExtension implements Extension {

    private static final Logger LOG = Logger.getLogger(ClusterModeExtension.class.getName());
    private static final String ROOM = ClusterModeExtension.class.getPackageName();

    private boolean enabled;

    void decide(@Observes BeforeBeanDiscovery event) {
        enabled = ClusterSettings.from(ConfigProvider.getConfig()).enabled();
        if (!enabled) {
            LOG.fine("Single instance: switchboard.cluster.members is not set, no cluster member is started");
        }
    }

    /** Every bean of this room is application scoped; other types are not looked at. */
    <T> void vetoWhenAlone(@Observes @WithAnnotations(ApplicationScoped.class) ProcessAnnotatedType<T> type) {
        if (!enabled && type.getAnnotatedType().getJavaClass().getPackageName().equals(ROOM)) {
            type.veto();
        }
    }
}
