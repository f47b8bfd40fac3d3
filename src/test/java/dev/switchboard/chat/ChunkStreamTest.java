package dev.switchboard.chat;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When a stream's chunks leave: text when the provider waits, everything else at once. */
class ChunkStreamTest {

    /** Records what had been written at each flush. */
    static final class FlushRecorder extends ByteArrayOutputStream {
        final List<String> flushed = new ArrayList<>();

        @Override
        public void flush() {
            flushed.add(toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void textLeavesWhenTheProviderWaitsAndEverythingElseAtOnce() {
        FlushRecorder out = new FlushRecorder();
        ChunkStream chunks = new ChunkStream(out, CompletionIdentity.next("m"));

        chunks.role();
        assertEquals(2, out.flushed.size(), "the role chunk at once (its blank line with a flush of its own)");
        chunks.content("Hel");
        chunks.content("lo");
        assertEquals(2, out.flushed.size(), "text that arrived together waits for the provider to pause");
        chunks.flush();
        assertEquals(3, out.flushed.size());
        assertTrue(out.flushed.get(2).contains("\"content\":\"Hel\"") && out.flushed.get(2).contains("\"content\":\"lo\""), out.flushed.get(2));
        chunks.content("!");
        chunks.end();
        assertEquals(4, out.flushed.size(), "a chunk of another kind takes the text before it along");
        assertTrue(out.flushed.get(3).endsWith("\"content\":\"!\"}}\n\ndata: [DONE]\n\n"), out.flushed.get(3));
    }
}
