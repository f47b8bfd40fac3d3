package dev.switchboard.platform.sse;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class SseReaderTest {

    @Test
    void parsesMultiLineDataIdsTypesAndComments() throws IOException {
        String stream = ": keep-alive comment\n"
                + "event: endpoint\n"
                + "data: /message?sessionId=1\n"
                + "\n"
                + "id: 7\n"
                + "data: {\"a\":\n"
                + "data:1}\n"
                + "retry: 1000\n"
                + "\n"
                + "\n"
                + "id: 8\r\n"
                + "data: last\r\n"
                + "\r\n"
                + "data: unterminated";
        try (SseReader reader = new SseReader(new ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8)))) {
            assertEquals(new SseEvent(null, "endpoint", "/message?sessionId=1"), reader.next());
            assertEquals(new SseEvent("7", "message", "{\"a\":\n1}"), reader.next());
            assertEquals(new SseEvent("8", "message", "last"), reader.next());
            assertNull(reader.next());
            assertEquals("8", reader.lastEventId());
        }
    }

    @Test
    void reportsEachWaitForTheSenderButNotWhatIsAlreadyBuffered() throws IOException {
        // two events that arrive together, then a third that comes later: a stream that hands its bytes out in sends
        List<String> sends = new ArrayList<>(List.of("data: one\n\ndata: two\n\n", "data: three\n\n"));
        List<String> seen = new ArrayList<>();
        InputStream in = new InputStream() {
            private ByteArrayInputStream current = new ByteArrayInputStream(new byte[0]);

            @Override
            public int read() {
                if (current.available() == 0 && !sends.isEmpty()) {
                    seen.add("send");
                    current = new ByteArrayInputStream(sends.remove(0).getBytes(StandardCharsets.UTF_8));
                }
                return current.read();
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (current.available() == 0 && !sends.isEmpty()) {
                    seen.add("send");
                    current = new ByteArrayInputStream(sends.remove(0).getBytes(StandardCharsets.UTF_8));
                }
                return current.available() == 0 ? -1 : current.read(b, off, len);
            }

            @Override
            public int available() {
                return current.available();
            }
        };
        try (SseReader reader = new SseReader(in)) {
            Runnable waiting = () -> seen.add("wait");
            seen.add(reader.next(waiting).data());
            seen.add(reader.next(waiting).data());
            seen.add(reader.next(waiting).data());
            assertNull(reader.next(waiting));
        }
        assertEquals(List.of("wait", "send", "one", "two", "wait", "send", "three", "wait"), seen);
    }

    @Test
    void anEventIdCountsOnlyOnceItsEventIsComplete() throws IOException {
        try (SseReader reader = reader("id: 1\ndata: one\n\nid: 2\ndata: cut off in the midd")) {
            assertEquals(new SseEvent("1", "message", "one"), reader.next());
            assertNull(reader.next());
            assertEquals("1", reader.lastEventId(), "a stream resumed after the cut asks for event 2 again");
        }
    }

    @Test
    void aReopenedStreamGoesOnFromTheIdAndRetryOfTheOneBefore() throws IOException {
        SseReader first = reader("id: p1\nretry: 250\ndata: \n\nretry: soon\n\n");
        assertEquals(new SseEvent("p1", "message", ""), first.next(), "a priming event: an id and no data");
        assertNull(first.next());
        assertEquals(250, first.retryMillis(), "a retry that is not a number is ignored");

        SseReader second = new SseReader(stream("data: two\n\n"), first);
        assertEquals(new SseEvent("p1", "message", "two"), second.next());
        assertEquals("p1", second.lastEventId());
        assertEquals(250, second.retryMillis());

        SseReader third = new SseReader(stream("id\ndata: three\n\n"), second);
        assertEquals(new SseEvent(null, "message", "three"), third.next());
        assertNull(third.lastEventId(), "an empty id resets it");
        assertEquals(SseReader.NO_RETRY, reader("data: x\n\n").retryMillis());
    }

    private static SseReader reader(String text) {
        return new SseReader(stream(text));
    }

    private static InputStream stream(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }
}
