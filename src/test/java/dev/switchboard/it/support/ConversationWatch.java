package dev.switchboard.it.support;

import dev.switchboard.platform.sse.SseEvent;
import dev.switchboard.platform.sse.SseReader;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An open {@code GET /api/conversations/{id}/events} (over HTTP/1.1, so closing it cuts its connection), read on a
 * thread of its own so that a test never waits longer than it says.
 */
public final class ConversationWatch implements AutoCloseable {

    private final HttpResponse<InputStream> response;
    private final SseReader reader;

    private ConversationWatch(HttpResponse<InputStream> response) {
        this.response = response;
        this.reader = new SseReader(response.body());
    }

    /** The conversation's events on the server at {@code base}, after {@code lastEventId} when it is not null. */
    public static ConversationWatch open(String base, long conversation, String token, String lastEventId) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/api/conversations/" + conversation + "/events"))
                .header("Authorization", "Bearer " + token).header("Accept", "text/event-stream").GET();
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<InputStream> response = Chat.http1().send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, response.statusCode(), () -> "the stream opened: " + body(response));
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
        return new ConversationWatch(response);
    }

    /** The next event with data, within 30 seconds. */
    public SseEvent next() throws Exception {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return reader.next();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).get(30, TimeUnit.SECONDS);
    }

    /** Events until (and with) the first that {@code last} accepts. */
    public List<SseEvent> until(Predicate<SseEvent> last) throws Exception {
        List<SseEvent> events = new ArrayList<>();
        while (true) {
            SseEvent event = next();
            assertNotNull(event, () -> "the stream ended early after " + events);
            events.add(event);
            if (last.test(event)) {
                return events;
            }
        }
    }

    @Override
    public void close() throws Exception {
        response.body().close();
    }

    private static String body(HttpResponse<InputStream> response) {
        try (InputStream in = response.body()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (Exception e) {
            return e.toString();
        }
    }
}
