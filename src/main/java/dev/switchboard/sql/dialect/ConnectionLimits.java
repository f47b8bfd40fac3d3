package dev.switchboard.sql.dialect;

import dev.switchboard.sql.Params;
import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The query dialect's per-connection limits: at most {@code perMinute} requests in any sliding minute and {@code concurrent}
 * requests in flight at once. Both refusals are -32003 Rate Limit Error, with what was exceeded.
 */
final class ConnectionLimits {

    private static final Duration WINDOW = Duration.ofMinutes(1);

    private final int perMinute;
    private final int concurrent;
    private final Clock clock;
    private final Deque<Instant> recent = new ArrayDeque<>();
    private int inFlight;

    ConnectionLimits(int perMinute, int concurrent, Clock clock) {
        this.perMinute = perMinute;
        this.concurrent = concurrent;
        this.clock = clock;
    }

    /** Admits one request (call {@link #release()} when it is answered) or refuses it. */
    synchronized void admit() {
        Instant now = clock.instant();
        while (!recent.isEmpty() && !recent.peekFirst().isAfter(now.minus(WINDOW))) {
            recent.pollFirst();
        }
        if (recent.size() >= perMinute) {
            long retryAfter = Math.max(1, Duration.between(now, recent.peekFirst().plus(WINDOW)).toSeconds());
            throw new QueryException(QueryErrorCode.RATE_LIMIT, "请求过于频繁",
                    Params.data("limit", perMinute, "window", "60s", "retry_after", retryAfter));
        }
        if (inFlight >= concurrent) {
            throw new QueryException(QueryErrorCode.RATE_LIMIT, "并发请求过多",
                    Params.data("max_concurrent_requests", concurrent));
        }
        recent.addLast(now);
        inFlight++;
    }

    synchronized void release() {
        inFlight--;
    }
}
