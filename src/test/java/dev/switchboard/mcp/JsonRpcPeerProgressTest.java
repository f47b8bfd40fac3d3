package dev.switchboard.mcp;

import dev.switchboard.mcp.transport.McpTransport;
import dev.switchboard.platform.json.JsonProviders;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Progress that comes on another thread than the response (a backend's GET stream while the answer comes on the POST
 * stream) still reaches the caller before the caller has the answer, and none after.
 */
class JsonRpcPeerProgressTest {

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final FakeTransport transport = new FakeTransport();
    private final JsonRpcPeer peer = new JsonRpcPeer(transport, Runnable::run, scheduler, null);

    @AfterEach
    void stop() {
        peer.close();
        scheduler.shutdownNow();
    }

    @Test
    void theAnswerWaitsForAProgressBeingRelayedOnAnotherThread() throws Exception {
        peer.start(Duration.ofSeconds(1));
        List<String> relayed = new CopyOnWriteArrayList<>();
        CountDownLatch relaying = new CountDownLatch(1);
        CountDownLatch writeMayFinish = new CountDownLatch(1);
        Thread caller = new Thread(() -> {
            try {
                peer.request("tools/call", JsonValue.EMPTY_JSON_OBJECT, Duration.ofSeconds(10), params -> {
                    relaying.countDown();
                    await(writeMayFinish);
                    relayed.add("progress " + params.getInt("progress"));
                });
                relayed.add("answer");
            } catch (McpException e) {
                relayed.add("failed: " + e.getMessage());
            }
        });
        caller.start();
        JsonRpcMessage request = transport.sent.poll(5, TimeUnit.SECONDS);
        assertNotNull(request);
        String token = request.params().getJsonObject("_meta").getString("progressToken");

        // the GET stream's reader hands over a progress, and its write to the client is slow
        Thread getStream = new Thread(() -> transport.listener.onMessage(progress(token, 1)));
        getStream.start();
        assertTrue(relaying.await(5, TimeUnit.SECONDS));
        // meanwhile the POST stream's reader gets the response
        transport.listener.onMessage(JsonRpcMessage.result(request.id(), JsonValue.EMPTY_JSON_OBJECT), request.idKey());
        caller.join(300);
        assertTrue(caller.isAlive(), "the caller has the answer while its progress is still being written: " + relayed);

        writeMayFinish.countDown();
        caller.join(5_000);
        getStream.join(5_000);
        assertFalse(caller.isAlive());
        // a progress after the answer is no longer relayed
        transport.listener.onMessage(progress(token, 2));
        assertEquals(List.of("progress 1", "answer"), relayed);
    }

    private static JsonRpcMessage progress(String token, int value) {
        JsonObject params = JsonProviders.JSON.createObjectBuilder().add("progressToken", token).add("progress", value).build();
        return JsonRpcMessage.notification("notifications/progress", params);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Records what the peer sends; the test plays the backend's reader threads through the listener. */
    private static final class FakeTransport implements McpTransport {

        final BlockingQueue<JsonRpcMessage> sent = new LinkedBlockingQueue<>();
        volatile Listener listener;

        @Override
        public void start(Listener listener, Duration timeout) {
            this.listener = listener;
        }

        @Override
        public CompletableFuture<Void> send(JsonRpcMessage message, Duration timeout) {
            sent.add(message);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void close() {
            // nothing is open
        }
    }
}
