package dev.switchboard.it.cluster;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A member that lacks what a cluster needs does not start, and its log says every reason: the lone server the build
 * created ({@code switchboard-cluster-lone}: the embedded H2, no secret keys, no audit secrets) started with only
 * {@code SWITCHBOARD_CLUSTER_MEMBERS} set.
 */
class ClusterRefusalIT {

    static final String SERVER = "switchboard-cluster-lone";
    static final String PORT = System.getProperty("it.cluster.lone.port", "18785");
    static final String MEMBER_PORT = System.getProperty("it.cluster.lone.member.port", "18786");

    @Test
    void aMemberOnH2WithoutKeysRefusesToStartAndSaysWhy() throws Exception {
        Path log = ClusterMembers.WLP.resolve("usr/servers/" + SERVER + "/logs/messages.log");
        Files.deleteIfExists(log);
        ClusterMembers.finished(ClusterMembers.server("start", SERVER,
                Map.of("SWITCHBOARD_CLUSTER_MEMBERS", "127.0.0.1:" + MEMBER_PORT)), "server start " + SERVER);
        try {
            String refusal = awaitLine(log, "refused to start");
            assertTrue(refusal.contains("Cluster mode (switchboard.cluster.members) refused to start"), refusal);
            assertTrue(refusal.contains("its database is the embedded H2"), refusal);
            assertTrue(refusal.contains("SWITCHBOARD_SECRET_KEYS (or SWITCHBOARD_SECRET_KEY) is not set"), refusal);
            assertTrue(refusal.contains("SWITCHBOARD_AUDIT_SECRETS is not set"), refusal);
            // Liberty says CWWKZ0002E when the refusal is thrown while the application starts, CWWKZ0012I when it is
            // thrown while its web module starts (the refusal comes from whichever bean first needs the member)
            String applicationFailed = awaitLine(log, "CWWKZ0002E", "CWWKZ0012I");
            assertTrue(applicationFailed.contains("switchboard"), applicationFailed);
            ClusterMembers.Member lone = new ClusterMembers.Member("lone", "http://127.0.0.1:" + PORT);
            assertFalse(lone.get("/health/ready", null).status() == 200, "the application is not ready, nor anywhere");
            assertFalse(Files.readString(log).contains("Cluster member ["), "no Hazelcast member was started");
        } finally {
            ClusterMembers.server("stop", SERVER, Map.of()).waitFor(120, TimeUnit.SECONDS);
        }
    }

    /** The first line of the log holding one of {@code texts}, once it is there (bounded: a slow start takes minutes). */
    private static String awaitLine(Path log, String... texts) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(7));
        while (Instant.now().isBefore(deadline)) {
            if (Files.exists(log)) {
                for (String line : Files.readAllLines(log)) {
                    for (String text : texts) {
                        if (line.contains(text)) {
                            return line;
                        }
                    }
                }
            }
            Thread.sleep(500);
        }
        throw new AssertionError("no line with " + String.join(" or ", texts) + " in " + log + " within 7 minutes:\n"
                + new MemberLog(SERVER).whatMatters());
    }
}
