package dev.switchboard.gateway;

import dev.switchboard.backend.registry.McpServerChanged;
import dev.switchboard.security.CurrentUser;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class SharedBackendsTest {

    /** Answers a fresh list per read and counts the reads; {@code duringRead} runs inside a read. */
    private static final class CountingQuery extends SharedBackendsQuery {
        final List<CurrentUser> reads = new ArrayList<>();
        Runnable duringRead = () -> { };

        @Override
        public List<GatewayBackend> of(CurrentUser caller) {
            reads.add(caller);
            duringRead.run();
            return List.of(new GatewayBackend("everything" + reads.size(), "1", Set.of(), Duration.ofSeconds(30),
                    () -> null));
        }
    }

    private static CurrentUser user(String subject, String tenant, String... roles) {
        return new CurrentUser() {
            @Override
            public String subject() {
                return subject;
            }

            @Override
            public String tenant() {
                return tenant;
            }

            @Override
            public Set<String> roles() {
                return Set.of(roles);
            }
        };
    }

    private static SharedBackends backends(CountingQuery query) {
        SharedBackends backends = new SharedBackends();
        backends.query = query;
        return backends;
    }

    @Test
    void aCallersBackendsAreReadOnceAndKept() {
        CountingQuery query = new CountingQuery();
        SharedBackends backends = backends(query);

        List<GatewayBackend> first = backends.of(user("alice", "acme", "user"));
        List<GatewayBackend> second = backends.of(user("alice", "acme", "user"));

        assertSame(first, second);
        assertEquals(1, query.reads.size());
    }

    @Test
    void anotherSubjectTenantOrRoleSetIsReadOnItsOwn() {
        CountingQuery query = new CountingQuery();
        SharedBackends backends = backends(query);

        backends.of(user("alice", "acme", "user"));
        backends.of(user("bob", "acme", "user"));
        backends.of(user("alice", "other", "user"));
        backends.of(user("alice", "acme", "user", "admin"));

        assertEquals(4, query.reads.size());
    }

    @Test
    void aRegistryChangeMakesTheNextCallReadAgain() {
        CountingQuery query = new CountingQuery();
        SharedBackends backends = backends(query);
        backends.of(user("alice", "acme", "user"));

        backends.onServerChanged(new McpServerChanged(7, false));
        List<GatewayBackend> after = backends.of(user("alice", "acme", "user"));

        assertEquals(2, query.reads.size());
        assertEquals("everything2", after.get(0).name());
    }

    @Test
    void anAnswerReadWhileAChangeCommittedIsNotKept() {
        CountingQuery query = new CountingQuery();
        SharedBackends backends = backends(query);
        query.duringRead = () -> {
            query.duringRead = () -> { };
            backends.onServerChanged(new McpServerChanged(7, true));
        };

        backends.of(user("alice", "acme", "user"));
        backends.of(user("alice", "acme", "user"));
        backends.of(user("alice", "acme", "user"));

        assertEquals(2, query.reads.size());
    }
}
