package dev.switchboard.observability;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The trace (and who is calling) of the work the current thread does: bound by {@link TraceFilter} on the
 * container's thread and again by the gateway on its worker threads, where requests are served. While bound, every
 * log record of the thread carries {@code traceId} (and {@code tenant}, {@code subject} when known) as fields.
 */
public final class TraceScope implements AutoCloseable {

    private static final ThreadLocal<TraceScope> CURRENT = new ThreadLocal<>();

    private final TraceContext trace;
    private final Map<String, String> fields;
    private final TraceScope previous;

    private TraceScope(TraceContext trace, Map<String, String> fields, TraceScope previous) {
        this.trace = trace;
        this.fields = fields;
        this.previous = previous;
    }

    /** Binds the trace to this thread until {@link #close()}; {@code fields} are further log fields (null values left out). */
    public static TraceScope open(TraceContext trace, Map<String, String> fields) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("traceId", trace.traceId());
        fields.forEach((k, v) -> {
            if (v != null) {
                all.put(k, v);
            }
        });
        TraceScope scope = new TraceScope(trace, all, CURRENT.get());
        CURRENT.set(scope);
        LogFields.put(all);
        return scope;
    }

    /** The trace bound to this thread, or a new one when none is (work that no request started). */
    public static TraceContext currentOrNew() {
        TraceScope scope = CURRENT.get();
        return scope == null ? TraceContext.newTrace() : scope.trace;
    }

    /** Adds log fields to this scope's records (a call's tool and backend, say) until it closes. */
    public void put(String name, String value) {
        if (value != null) {
            fields.put(name, value);
            LogFields.put(Map.of(name, value));
        }
    }

    @Override
    public void close() {
        LogFields.remove(fields.keySet());
        if (previous == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(previous);
            LogFields.put(new HashMap<>(previous.fields));
        }
    }
}
