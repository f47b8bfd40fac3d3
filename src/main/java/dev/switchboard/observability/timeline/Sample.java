package dev.switchboard.observability.timeline;

import java.time.Instant;
import java.util.Objects;

/** The cumulative call figures read at one instant: gateway {@code tools/call}s and the chat loop's MCP tool calls. */
public record Sample(Instant at, CallTotals gateway, CallTotals chat) {

    public Sample {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(gateway, "gateway");
        Objects.requireNonNull(chat, "chat");
    }
}
