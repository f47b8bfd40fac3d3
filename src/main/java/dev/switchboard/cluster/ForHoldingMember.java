package dev.switchboard.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;

import java.io.Serial;
import java.io.Serializable;
import java.util.Optional;

/**
 * A client's message one member received in the caller's session (checked there) and sends to the member that holds
 * what it names; it runs there on the {@code switchboard-client-messages} executor.
 */
abstract class ForHoldingMember implements Serializable, HazelcastInstanceAware {

    @Serial
    private static final long serialVersionUID = 1L;

    final String sessionId;
    final String subject;
    private transient HazelcastInstance hazelcast;

    ForHoldingMember(String sessionId, String subject) {
        this.sessionId = sessionId;
        this.subject = subject;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcast) {
        this.hazelcast = hazelcast;
    }

    /** This member's receiver; empty while its application has not started (it then holds nothing). */
    Optional<ClusterClientMessages> receiver() {
        return hazelcast.getUserContext().get(ClusterClientMessages.RECEIVER) instanceof ClusterClientMessages receiver
                ? Optional.of(receiver) : Optional.empty();
    }
}
