package dev.switchboard.cluster;

import com.hazelcast.topic.ITopic;
import com.hazelcast.topic.Message;
import dev.switchboard.backend.registry.McpServerChanged;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.enterprise.inject.Default;
import jakarta.inject.Inject;

import java.io.Serializable;

/**
 * Tells the other members at once that a server was added, edited or deleted here, so they drop its connections and
 * their kept lists of servers now rather than when they next read the server's settings version (which they do anyway:
 * a message lost here leaves no connection stale for long, see {@code backend.pool.BackendConnectionPool}).
 */
@ApplicationScoped
public class ServerChangeRelay {

    /** A change as it travels between members. */
    record ServerChange(long serverId, boolean deleted) implements Serializable {
    }

    @Inject
    HazelcastMember member;

    @Inject
    @FromOtherMember
    Event<McpServerChanged> fromOtherMembers;

    @Resource
    ManagedExecutorService executor;

    void start(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        topic().addMessageListener(this::received);
    }

    /** Only changes made here ({@code @Default}): one replayed from another member is not sent back. */
    void changedHere(@Observes(during = TransactionPhase.AFTER_SUCCESS) @Default McpServerChanged change) {
        topic().publish(new ServerChange(change.serverId(), change.deleted()));
    }

    private ITopic<ServerChange> topic() {
        return member.instance().getTopic(MemberConfig.SERVER_CHANGES);
    }

    /** On a container thread: the observers expect the application's context, not a Hazelcast event thread. */
    private void received(Message<ServerChange> message) {
        if (message.getPublishingMember().localMember()) {
            return;
        }
        ServerChange change = message.getMessageObject();
        executor.execute(() -> fromOtherMembers.fire(new McpServerChanged(change.serverId(), change.deleted())));
    }
}
