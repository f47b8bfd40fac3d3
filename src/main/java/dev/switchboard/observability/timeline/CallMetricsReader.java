package dev.switchboard.observability.timeline;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import java.time.Instant;

/**
 * Reads the cumulative call figures the timeline samples from every {@link CallTotalsSource} deployed: the
 * gateway's {@code tools/call}s and the chat loop's MCP tool calls. A side nobody provides reads as no calls.
 */
@ApplicationScoped
public class CallMetricsReader {

    @Inject
    @Any
    Instance<CallTotalsSource> sources;

    public Sample read(Instant at) {
        return new Sample(at, totals(CallTotalsSource.Side.GATEWAY), totals(CallTotalsSource.Side.CHAT));
    }

    private CallTotals totals(CallTotalsSource.Side side) {
        CallTotals sum = CallTotals.NONE;
        for (CallTotalsSource source : sources) {
            if (source.side() == side) {
                sum = sum.plus(source.read());
            }
        }
        return sum;
    }
}
