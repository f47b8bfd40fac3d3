package dev.switchboard.observability;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TraceContextTest {

    static final String CALLER = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void aValidTraceparentIsContinuedWithASpanOfOurOwn() {
        TraceContext trace = TraceContext.continuing(CALLER).orElseThrow();
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", trace.traceId());
        assertNotEquals("00f067aa0ba902b7", trace.spanId());
        assertEquals("01", trace.flags());
        assertTrue(trace.traceparent().matches("00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01"));
        TraceContext child = trace.child();
        assertEquals(trace.traceId(), child.traceId());
        assertNotEquals(trace.spanId(), child.spanId());
    }

    @Test
    void malformedTraceparentsAreReplacedByANewTrace() {
        for (String bad : Arrays.asList(null, "", "garbage", "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7")) {
            assertTrue(TraceContext.continuing(bad).isEmpty(), String.valueOf(bad));
            TraceContext fresh = TraceContext.continuingOrNew(bad);
            assertTrue(fresh.traceparent().matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01"), fresh.traceparent());
            assertNotEquals("4bf92f3577b34da6a3ce929d0e0e4736", fresh.traceId());
        }
        List<String> ids = List.of(TraceContext.newTrace().traceId(), TraceContext.newTrace().traceId());
        assertNotEquals(ids.get(0), ids.get(1));
    }
}
