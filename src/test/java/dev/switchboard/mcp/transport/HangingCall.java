package dev.switchboard.mcp.transport;

import dev.switchboard.mcp.JsonRpcPeer;
import dev.switchboard.mcp.McpException;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A call of "hang" on a thread of its own, whose answer stream is open once {@link #start} returns: the test server
 * answers it with an SSE stream that sends one progress notification and then nothing.
 *
 * @param outcome what the call ended with: null for a result, else its exception
 */
record HangingCall(Thread thread, CompletableFuture<Throwable> outcome) {

    static HangingCall start(JsonRpcPeer peer) throws InterruptedException {
        CountDownLatch streaming = new CountDownLatch(1);
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                peer.request("hang", null, Duration.ofSeconds(30), progress -> streaming.countDown());
                outcome.complete(null);
            } catch (McpException e) {
                outcome.complete(e);
            }
        });
        thread.start();
        assertTrue(streaming.await(5, TimeUnit.SECONDS), "the answer stream is open");
        return new HangingCall(thread, outcome);
    }
}
