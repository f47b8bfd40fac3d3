package dev.switchboard.observability.timeline;

import dev.switchboard.platform.ApiException;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * {@code /api/metrics/timeline} for admins: gateway {@code tools/call}s and the chat loop's MCP tool calls per
 * sampling interval (a minute) over the recent past, with failures and mean latency, for the console's overview
 * charts. The figures of every tenant together: they come from the process-wide metrics.
 */
@Path("/metrics/timeline")
@RolesAllowed("admin")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Metrics", description = "Recent call figures per minute, sampled from the metrics")
public class MetricsTimelineResource {

    @Inject
    MetricsSampler sampler;

    @GET
    @Operation(summary = "Calls, failed calls and mean latency of gateway tools/call and chat tool calls per sampling "
            + "interval, oldest first, the running interval last (partial); minutes: how far back (default 60, at most "
            + "the kept history)")
    public JsonObject timeline(@QueryParam("minutes") String minutes) {
        long maxMinutes = Math.max(1, sampler.history().toMinutes());
        long window = minutes == null ? Math.min(60, maxMinutes) : parseMinutes(minutes, maxMinutes);
        Instant now = Instant.now();
        List<TimelinePoint> points = sampler.last(now, Duration.ofMinutes(window));
        JsonArrayBuilder data = Json.createArrayBuilder();
        CallTotals gateway = CallTotals.NONE;
        CallTotals chat = CallTotals.NONE;
        for (TimelinePoint p : points) {
            data.add(Json.createObjectBuilder().add("start", p.start().toString()).add("end", p.end().toString())
                    .add("partial", p.partial()).add("gateway", json(p.gateway())).add("chat", json(p.chat())));
            gateway = gateway.plus(p.gateway());
            chat = chat.plus(p.chat());
        }
        return Json.createObjectBuilder()
                .add("now", now.toString())
                .add("from", now.minus(Duration.ofMinutes(window)).toString())
                .add("minutes", window)
                .add("intervalSeconds", sampler.interval().toSeconds())
                .add("sampledSince", sampler.startedAt().toString())
                .add("points", data)
                .add("totals", Json.createObjectBuilder().add("gateway", json(gateway)).add("chat", json(chat))
                        .add("all", json(gateway.plus(chat))))
                .build();
    }

    static long parseMinutes(String value, long max) {
        long minutes;
        try {
            minutes = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("invalid_minutes", "'minutes' must be a whole number from 1 to " + max);
        }
        if (minutes < 1 || minutes > max) {
            throw ApiException.badRequest("invalid_minutes", "'minutes' must be a whole number from 1 to " + max
                    + " (the history kept, switchboard.metrics.timeline-history)");
        }
        return minutes;
    }

    private static JsonObjectBuilder json(CallTotals totals) {
        JsonObjectBuilder json = Json.createObjectBuilder().add("calls", totals.calls()).add("errors", totals.errors());
        Double mean = totals.meanMillis();
        if (mean == null) {
            json.addNull("meanLatencyMs");
        } else {
            json.add("meanLatencyMs", Math.round(mean * 100) / 100.0);
        }
        return json;
    }
}
