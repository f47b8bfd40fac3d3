package dev.switchboard.mcp.transport;

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
}
