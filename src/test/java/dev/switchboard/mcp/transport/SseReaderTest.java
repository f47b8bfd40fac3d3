package dev.switchboard.mcp.transport;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
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
}
