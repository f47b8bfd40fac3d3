package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcMessage;
import jakarta.json.Json;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ListenStreamsTest {

    @Test
    void eachStreamGetsTheKindsItOptedInToOfItsCallerAndBackendOnly() {
        ListenStreams streams = new ListenStreams();
        List<JsonRpcMessage> aggregated = new ArrayList<>();
        List<JsonRpcMessage> passthrough = new ArrayList<>();
        List<JsonRpcMessage> other = new ArrayList<>();
        Set<String> tools = ListenStreams.honoured(Json.createObjectBuilder().add("toolsListChanged", true).add("promptsListChanged", false)
                .add("resourceSubscriptions", Json.createArrayBuilder().add("x")).build());
        assertEquals(Set.of("toolsListChanged"), tools);
        Runnable close = streams.add(new ListenStreams.Listener("alice", null, Json.createValue(7), tools, aggregated::add)).orElseThrow();
        streams.add(new ListenStreams.Listener("alice", "server-2", Json.createValue("p"), tools, passthrough::add));
        streams.add(new ListenStreams.Listener("bob", null, Json.createValue(1), tools, other::add));

        streams.changed("alice", "server-1", "notifications/tools/list_changed");
        streams.changed("alice", "server-1", "notifications/prompts/list_changed");
        streams.changed("alice", "server-1", "notifications/message");
        assertEquals(1, aggregated.size());
        assertEquals(7, aggregated.get(0).params().getJsonObject("_meta").getInt(ListenStreams.SUBSCRIPTION_ID_KEY));
        assertTrue(passthrough.isEmpty(), "another backend's change is not a passthrough stream's");
        assertTrue(other.isEmpty(), "nor another caller's");
        streams.changed("alice", "server-2", "notifications/tools/list_changed");
        assertEquals(1, passthrough.size());
        assertEquals(2, aggregated.size(), "/mcp's stream hears of every backend");

        close.run();
        streams.changed("alice", "server-1", "notifications/tools/list_changed");
        assertEquals(2, aggregated.size(), "a closed stream is told nothing more");
    }

    @Test
    void aCallerHoldsABoundedNumberOfStreams() {
        ListenStreams streams = new ListenStreams();
        for (int i = 0; i < ListenStreams.MAX_PER_CALLER; i++) {
            assertTrue(streams.add(new ListenStreams.Listener("alice", null, Json.createValue(i), Set.of(), m -> { })).isPresent());
        }
        assertEquals(Optional.empty(), streams.add(new ListenStreams.Listener("alice", null, Json.createValue(99), Set.of(), m -> { })));
        assertTrue(streams.add(new ListenStreams.Listener("bob", null, Json.createValue(1), Set.of(), m -> { })).isPresent());
    }
}
