package dev.switchboard.cluster;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Two real Hazelcast members on 127.0.0.1 with the configuration {@link MemberConfig} gives them, for tests of the
 * shared state between members: what one appends the other reads through the network, whichever owns the data.
 */
final class TwoMembers implements AutoCloseable {

    final HazelcastInstance one;
    final HazelcastInstance two;

    private TwoMembers(HazelcastInstance one, HazelcastInstance two) {
        this.one = one;
        this.two = two;
    }

    static TwoMembers start(StreamLimits limits) throws Exception {
        int first = freePort();
        int second = freePort();
        List<String> members = List.of("127.0.0.1:" + first, "127.0.0.1:" + second);
        String name = "test-" + first;
        HazelcastInstance one = Hazelcast.newHazelcastInstance(config(members, first, name, limits));
        HazelcastInstance two = Hazelcast.newHazelcastInstance(config(members, second, name, limits));
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (one.getCluster().getMembers().size() < 2 && Instant.now().isBefore(deadline)) {
            Thread.sleep(100);
        }
        if (one.getCluster().getMembers().size() < 2) {
            one.shutdown();
            two.shutdown();
            throw new AssertionError("the two test members did not find each other");
        }
        return new TwoMembers(one, two);
    }

    private static com.hazelcast.config.Config config(List<String> members, int port, String name, StreamLimits limits) {
        ClusterSettings settings = new ClusterSettings(members, Optional.empty(), port, Optional.of("127.0.0.1"), name);
        return MemberConfig.of(settings, 100, limits, TwoMembers.class.getClassLoader());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        two.shutdown();
        one.shutdown();
    }
}
