package dev.switchboard.gateway;

import dev.switchboard.backend.pool.BackendConnectionPool;
import dev.switchboard.backend.pool.PoolConfig;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.client.DefaultMcpConnector;
import dev.switchboard.testing.ScriptedServer;
import dev.switchboard.testing.TestThreads;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A backend's tools/list_changed reaches the GET streams of its caller's client sessions, and only those. */
class ToolsChangedRelayTest {

    @Test
    void aBackendsListChangedReachesTheCallersStreams() throws Exception {
        try (TestThreads threads = new TestThreads();
             BackendConnectionPool pool = new BackendConnectionPool(
                     new DefaultMcpConnector(threads.executor(), threads.scheduler()), PoolConfig.defaults(), Clock.systemUTC())) {
            GatewaySessions sessions = new GatewaySessions(Duration.ofMinutes(30), Clock.systemUTC());
            pool.onToolsListChanged(new ToolsChangedRelay(sessions, new ListenStreams()));
            List<JsonRpcMessage> alices = new CopyOnWriteArrayList<>();
            List<JsonRpcMessage> bobs = new CopyOnWriteArrayList<>();
            sessions.create("alice").addStream(alices::add);
            sessions.create("bob").addStream(bobs::add);

            pool.callTool("alice", "scripted", ScriptedServer::spec, "change", null, Duration.ofSeconds(10), null);

            for (int i = 0; i < 100 && alices.isEmpty(); i++) {
                Thread.sleep(20);
            }
            assertEquals(1, alices.size());
            assertEquals("notifications/tools/list_changed", alices.get(0).method());
            assertTrue(bobs.isEmpty(), "another caller's sessions hear nothing");
        }
    }
}
