package dev.switchboard.it.platform;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Chat;
import dev.switchboard.it.support.GatewayClient;
import dev.switchboard.it.support.Names;
import dev.switchboard.it.support.RunningEverything;
import dev.switchboard.it.support.ScriptedLlm;
import dev.switchboard.it.support.SharedEverything;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.llm.ToolCall;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code GET /api/metrics/timeline}: gateway {@code tools/call}s and chat tool calls made here show up in the points
 * after the moment the test began, first in the running (partial) point, then in points the sampler closed (every
 * 5 s on the IT server, {@code switchboard.metrics.timeline-interval}, 15 minutes kept); admins only.
 */
class MetricsTimelineIT {

    static final int GATEWAY_CALLS = 3;

    @RegisterExtension
    static final SharedEverything gateway = new SharedEverything("tl");
    @RegisterExtension
    static final ScriptedLlm provider = new ScriptedLlm();
    @RegisterExtension
    static final RunningEverything chatBackend = RunningEverything.streamableHttp();

    static JsonObject timeline(String query) {
        return Api.get("/api/metrics/timeline" + query, Api.adminToken()).expect(200).json();
    }

    /** The instant from which every later call is in a point: the start of the running interval, or now. */
    static Instant baseline(JsonObject timeline) {
        List<JsonObject> points = timeline.getJsonArray("points").getValuesAs(JsonObject.class);
        JsonObject last = points.isEmpty() ? null : points.get(points.size() - 1);
        return last != null && last.getBoolean("partial") ? Instant.parse(last.getString("start")) : Instant.parse(timeline.getString("now"));
    }

    /** Calls and errors of one series over the points that start at or after {@code from} and pass {@code which}. */
    static long[] sum(JsonObject timeline, String series, Instant from, Predicate<JsonObject> which) {
        long calls = 0;
        long errors = 0;
        for (JsonObject p : timeline.getJsonArray("points").getValuesAs(JsonObject.class)) {
            if (!Instant.parse(p.getString("start")).isBefore(from) && which.test(p)) {
                calls += p.getJsonObject(series).getJsonNumber("calls").longValue();
                errors += p.getJsonObject(series).getJsonNumber("errors").longValue();
            }
        }
        return new long[] {calls, errors};
    }

    static boolean timedAfter(JsonObject timeline, String series, Instant from) {
        return timeline.getJsonArray("points").getValuesAs(JsonObject.class).stream()
                .filter(p -> !Instant.parse(p.getString("start")).isBefore(from))
                .map(p -> p.getJsonObject(series).get("meanLatencyMs"))
                .anyMatch(v -> v.getValueType() == JsonValue.ValueType.NUMBER && ((jakarta.json.JsonNumber) v).doubleValue() > 0);
    }

    @Test
    void gatewayAndChatToolCallsAreCountedPerIntervalWithFailuresAndLatency() throws Exception {
        JsonObject before = timeline("");
        assertEquals(15, before.getInt("minutes"), "the default window: the last hour, or all the history kept when it is "
                + "shorter (15 minutes on the IT server)");
        assertEquals(5, before.getInt("intervalSeconds"), "the IT server samples every 5 s");
        Instant from = baseline(before);

        // through /mcp: three echoes and one tool that does not exist (-32602, a failed call)
        String admin = Api.adminToken();
        JsonArrayBuilder steps = Json.createArrayBuilder();
        for (int i = 0; i < GATEWAY_CALLS; i++) {
            steps.add(Json.createObjectBuilder().add("op", "call").add("name", gateway.name() + "__echo")
                    .add("arguments", Json.createObjectBuilder().add("message", "timeline " + i)));
        }
        steps.add(Json.createObjectBuilder().add("op", "call").add("name", gateway.name() + "__no-such-tool"));
        JsonObject ran = GatewayClient.run(admin, steps.build());
        assertTrue(ran.getJsonArray("steps").getJsonObject(GATEWAY_CALLS).containsKey("error"), () -> "the unknown tool failed: " + ran);

        // a chat run with two tool calls: an echo, and one with an argument echo refuses
        String user = Api.newUser("default");
        String serverName = Names.unique("tl-chat");
        long server = Chat.server(user, serverName, chatBackend.url(), List.of("echo"), List.of());
        long assistant = Chat.assistant(user, server);
        String echo = "mcp__" + serverName + "__echo";
        Script script = provider.script(Reply.tools(new ToolCall("tl-1", echo, "{\"message\":\"counted\"}"),
                new ToolCall("tl-2", echo, "{\"text\":\"the wrong argument\"}")), Reply.text("done"));
        Api.post("/api/chat/completions", user, Json.createObjectBuilder().add("assistant_id", assistant)
                .add("messages", Json.createArrayBuilder().add(Chat.user("count " + script.key()))).build()).expect(200);

        // at once, in the running interval or in intervals closed meanwhile
        JsonObject after = timeline("");
        long[] gatewaySeen = sum(after, "gateway", from, p -> true);
        assertTrue(gatewaySeen[0] >= GATEWAY_CALLS + 1 && gatewaySeen[1] >= 1, () -> "gateway calls and the failure: " + after);
        long[] chatSeen = sum(after, "chat", from, p -> true);
        assertTrue(chatSeen[0] >= 2 && chatSeen[1] >= 1, () -> "chat tool calls and the refused one: " + after);
        assertTrue(timedAfter(after, "gateway", from) && timedAfter(after, "chat", from), () -> "latency is measured: " + after);
        JsonObject totals = after.getJsonObject("totals");
        assertTrue(totals.getJsonObject("gateway").getJsonNumber("calls").longValue() >= GATEWAY_CALLS + 1, totals::toString);

        // then in closed points only: the sampler's timer ran
        Instant done = Instant.parse(after.getString("now"));
        JsonObject closed = after;
        for (int i = 0; i < 40 && !closedPast(closed, done); i++) {
            Thread.sleep(500);
            closed = timeline("");
        }
        JsonObject sampled = closed;
        assertTrue(closedPast(sampled, done), () -> "a point closed after the calls within 20 s: " + sampled);
        long[] gatewayClosed = sum(sampled, "gateway", from, p -> !p.getBoolean("partial"));
        long[] chatClosed = sum(sampled, "chat", from, p -> !p.getBoolean("partial"));
        assertTrue(gatewayClosed[0] >= GATEWAY_CALLS + 1 && gatewayClosed[1] >= 1, () -> "closed gateway points: " + sampled);
        assertTrue(chatClosed[0] >= 2 && chatClosed[1] >= 1, () -> "closed chat points: " + sampled);
        Api.delete("/api/assistants/" + assistant, user);
        Api.delete("/api/mcp-servers/" + server, user);
    }

    static boolean closedPast(JsonObject timeline, Instant instant) {
        return timeline.getJsonArray("points").getValuesAs(JsonObject.class).stream()
                .anyMatch(p -> !p.getBoolean("partial") && !Instant.parse(p.getString("end")).isBefore(instant));
    }

    @Test
    void theWindowIsChosenInMinutesWithinTheKeptHistory() {
        JsonObject five = timeline("?minutes=5");
        assertEquals(5, five.getInt("minutes"));
        Instant now = Instant.parse(five.getString("now"));
        assertEquals(now.minusSeconds(300), Instant.parse(five.getString("from")));
        for (JsonObject p : five.getJsonArray("points").getValuesAs(JsonObject.class)) {
            assertTrue(Instant.parse(p.getString("end")).isAfter(now.minusSeconds(300)), p::toString);
        }
        String admin = Api.adminToken();
        for (String bad : List.of("0", "-3", "x", "1.5", "100000")) {
            Api.Reply reply = Api.get("/api/metrics/timeline?minutes=" + bad, admin).expect(400);
            assertEquals("invalid_minutes", reply.errorCode(), bad);
            assertTrue(reply.errorMessage().startsWith("'minutes' must be a whole number from 1 to "), reply.errorMessage());
        }
    }

    @Test
    void onlyAdminsMayReadIt() {
        assertEquals(401, Api.get("/api/metrics/timeline", null).status());
        assertEquals(401, Api.get("/api/metrics/timeline", "not-a-token").status());
        assertEquals(403, Api.get("/api/metrics/timeline", Api.newUser("default")).status());
    }
}
