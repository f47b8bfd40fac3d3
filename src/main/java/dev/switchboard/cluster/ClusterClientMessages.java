package dev.switchboard.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.core.IExecutorService;
import com.hazelcast.core.MemberLeftException;
import com.hazelcast.spi.exception.TargetDisconnectedException;
import com.hazelcast.spi.exception.TargetNotMemberException;
import dev.switchboard.gateway.AnswerOutcome;
import dev.switchboard.gateway.ClientMessageRoute;
import dev.switchboard.gateway.ClientSessions;
import jakarta.annotation.Priority;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import jakarta.json.JsonObject;

import java.io.StringReader;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * A client's answers and cancellations across members: the ids of a member's requests to clients carry its Hazelcast
 * member UUID, so a response posted to another member is sent to that one ({@link HandAnswer} on the member's
 * executor), which completes the waiting request and says whether it did; a {@code notifications/cancelled} the
 * receiving member does not serve is sent to every other member ({@link HandCancel}), and the one serving the request
 * stops it. Both are checked there against the session and caller the receiving member verified.
 */
@Alternative
@Priority(Interceptor.Priority.APPLICATION)
@ApplicationScoped
public class ClusterClientMessages implements ClientMessageRoute {

    private static final Logger LOG = Logger.getLogger(ClusterClientMessages.class.getName());
    /** The key under which a member's Hazelcast user context holds this bean, for the tasks other members send. */
    static final String RECEIVER = "switchboard-client-messages";
    /** How long an answer may take to reach the waiting request on its member (one hop and a future's completion). */
    static final Duration HAND_ON_WAIT = Duration.ofSeconds(10);

    @Inject
    HazelcastMember member;

    @Inject
    ClientSessions clients;

    @Resource
    ManagedExecutorService executor;

    void start(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        member.instance().getUserContext().put(RECEIVER, this);
    }

    @Override
    public String member() {
        return member.instance().getCluster().getLocalMember().getUuid().toString();
    }

    @Override
    public AnswerOutcome answerAt(String memberName, String sessionId, String subject, JsonObject response) {
        Optional<UUID> uuid = uuid(memberName);
        if (uuid.isEmpty()) {
            return AnswerOutcome.NOT_OURS;
        }
        HazelcastInstance hazelcast = member.instance();
        Optional<Member> target = hazelcast.getCluster().getMembers().stream().filter(m -> m.getUuid().equals(uuid.get()))
                .findFirst();
        if (target.isEmpty()) {
            return AnswerOutcome.MEMBER_GONE;
        }
        Future<String> taken = executor(hazelcast).submitToMember(new HandAnswer(sessionId, subject, response.toString()),
                target.get());
        try {
            return AnswerOutcome.valueOf(taken.get(HAND_ON_WAIT.toMillis(), TimeUnit.MILLISECONDS));
        } catch (ExecutionException e) {
            // a member leaving fails the hand-over in several ways (left, disconnected, not a member); what counts is
            // whether it is still there
            if (gone(e.getCause()) || !hazelcast.getCluster().getMembers().contains(target.get())) {
                return AnswerOutcome.MEMBER_GONE;
            }
            LOG.log(Level.WARNING, "handing a client's answer to member " + target.get() + " failed", e.getCause());
            return AnswerOutcome.UNREACHABLE;
        } catch (TimeoutException e) {
            taken.cancel(true);
            return AnswerOutcome.UNREACHABLE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return AnswerOutcome.UNREACHABLE;
        }
    }

    @Override
    public void cancelElsewhere(String sessionId, String subject, String requestIdKey) {
        HazelcastInstance hazelcast = member.instance();
        Set<Member> others = hazelcast.getCluster().getMembers().stream().filter(m -> !m.localMember())
                .collect(Collectors.toSet());
        if (!others.isEmpty()) {
            executor(hazelcast).executeOnMembers(new HandCancel(sessionId, subject, requestIdKey), others);
        }
    }

    /** On the member holding the request, from a Hazelcast thread: taken on a container thread, as a POST here would be. */
    String take(String sessionId, String subject, String response) throws Exception {
        JsonObject json;
        try (var reader = JSON.createReader(new StringReader(response))) {
            json = reader.readObject();
        }
        return executor.submit(() -> clients.messages().answerHere(sessionId, subject, json).name())
                .get(HAND_ON_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    void takeCancel(String sessionId, String subject, String requestIdKey) {
        executor.execute(() -> clients.messages().cancelHere(sessionId, subject, requestIdKey));
    }

    private static IExecutorService executor(HazelcastInstance hazelcast) {
        return hazelcast.getExecutorService(MemberConfig.CLIENT_MESSAGES);
    }

    /** Ids are the client's to send: a member part that is no UUID names no member. */
    private static Optional<UUID> uuid(String name) {
        try {
            return Optional.of(UUID.fromString(name));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static boolean gone(Throwable failure) {
        return failure instanceof MemberLeftException || failure instanceof TargetNotMemberException
                || failure instanceof TargetDisconnectedException || failure instanceof HazelcastInstanceNotActiveException;
    }
}
