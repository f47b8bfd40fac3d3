package dev.switchboard.cluster;

import com.hazelcast.core.HazelcastInstance;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** A cluster member is ready while its Hazelcast member runs; the answer says how many members it sees. */
@Readiness
@ApplicationScoped
public class ClusterReadinessCheck implements HealthCheck {

    @Inject
    HazelcastMember member;

    @Override
    public HealthCheckResponse call() {
        HazelcastInstance hazelcast = member.instance();
        boolean running = hazelcast.getLifecycleService().isRunning();
        var response = HealthCheckResponse.named("cluster").status(running);
        return running ? response.withData("members", hazelcast.getCluster().getMembers().size())
                .withData("member", hazelcast.getCluster().getLocalMember().getUuid().toString()).build()
                : response.build();
    }
}
