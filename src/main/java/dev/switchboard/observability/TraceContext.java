package dev.switchboard.observability;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A W3C trace context ({@code traceparent}, version 00): the trace a request belongs to, the span that is this
 * gateway's part of it, and the sampled flag, which is passed on as the caller set it.
 */
public record TraceContext(String traceId, String spanId, String flags) {

    public static final String HEADER = "traceparent";
    private static final Pattern TRACEPARENT = Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})");
    private static final String INVALID_TRACE = "0".repeat(32);
    private static final String INVALID_SPAN = "0".repeat(16);
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The caller's trace continued by a span of ours; empty for a header that is not a valid version-00 traceparent. */
    public static Optional<TraceContext> continuing(String traceparent) {
        if (traceparent == null) {
            return Optional.empty();
        }
        var match = TRACEPARENT.matcher(traceparent.strip());
        if (!match.matches() || match.group(1).equals(INVALID_TRACE) || match.group(2).equals(INVALID_SPAN)) {
            return Optional.empty();
        }
        return Optional.of(new TraceContext(match.group(1), newSpanId(), match.group(3)));
    }

    /** As {@link #continuing(String)}, or a new sampled trace when the header is missing or malformed. */
    public static TraceContext continuingOrNew(String traceparent) {
        return continuing(traceparent).orElseGet(TraceContext::newTrace);
    }

    public static TraceContext newTrace() {
        return new TraceContext(hex(16), newSpanId(), "01");
    }

    /** The context a call this span makes carries: same trace, a span of its own. */
    public TraceContext child() {
        return new TraceContext(traceId, newSpanId(), flags);
    }

    public String traceparent() {
        return "00-" + traceId + "-" + spanId + "-" + flags;
    }

    private static String newSpanId() {
        String id;
        do {
            id = hex(8);
        } while (id.equals(INVALID_SPAN));
        return id;
    }

    private static String hex(int bytes) {
        byte[] id = new byte[bytes];
        RANDOM.nextBytes(id);
        return HexFormat.of().formatHex(id);
    }
}
