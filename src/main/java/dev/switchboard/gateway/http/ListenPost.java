package dev.switchboard.gateway.http;

import dev.switchboard.gateway.ClientContext;
import dev.switchboard.gateway.GatewayBackend;
import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.gateway.ListenStreams;
import dev.switchboard.mcp.JsonRpcMessage;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * {@code subscriptions/listen} of MCP 2026-07-28 on {@code /mcp} or {@code /mcp/servers/{name}}: an SSE stream that
 * first acknowledges the kinds of notification it agreed to ({@code notifications/subscriptions/acknowledged}), then
 * carries the list changes of the caller's backends as they come ({@link ListenStreams}), each with the subscription
 * id (the request's id) in {@code _meta}, with SSE comments in between that keep proxies from closing it. It ends when
 * the client leaves. Resource subscriptions are not agreed to: the acknowledgement leaves them out, as the era asks
 * of a server that does not honour a kind.
 */
final class ListenPost {

    private ListenPost() {
    }

    static void serve(JsonRpcMessage m, HttpServletRequest request, HttpServletResponse response, ClientContext who,
                      GatewayBackend single, ListenStreams listens, ScheduledExecutorService scheduler, Duration keepAlive)
            throws IOException {
        if (!(m.params().get("notifications") instanceof JsonObject filter)) {
            HttpReplies.json(response, 200, GatewayErrors.error(m.id(), GatewayErrors.INVALID_PARAMS,
                    "Invalid params: params.notifications is required (an object of the notification kinds to receive)", null));
            return;
        }
        Set<String> kinds = ListenStreams.honoured(filter);
        AsyncContext async = request.startAsync();
        async.setTimeout(0);
        SseConnection connection = SseConnection.open(async);
        JsonObjectBuilder agreed = JSON.createObjectBuilder();
        kinds.stream().sorted().forEach(kind -> agreed.add(kind, true));
        // the acknowledgement goes first: nothing of the subscription may precede it
        connection.write(frame(JsonRpcMessage.notification("notifications/subscriptions/acknowledged", JSON.createObjectBuilder()
                .add("notifications", agreed).add("_meta", JSON.createObjectBuilder().add(ListenStreams.SUBSCRIPTION_ID_KEY, m.id()))
                .build())));
        Optional<Runnable> opened = listens.add(new ListenStreams.Listener(who.subject(), single == null ? null : single.serverId(),
                m.id(), kinds, message -> connection.write(frame(message))));
        if (opened.isEmpty()) {
            connection.write(frame(GatewayErrors.error(m.id(), GatewayErrors.INTERNAL_ERROR, "Subscription limit reached: at most "
                    + ListenStreams.MAX_PER_CALLER + " open subscriptions/listen streams per caller", null)));
            connection.end();
            return;
        }
        ScheduledFuture<?> keepingAlive = scheduler.scheduleAtFixedRate(() -> connection.write(": keep-alive\n\n"),
                keepAlive.toMillis(), keepAlive.toMillis(), TimeUnit.MILLISECONDS);
        connection.whenClosed(() -> {
            keepingAlive.cancel(false);
            opened.get().run();
        });
    }

    private static String frame(JsonRpcMessage message) {
        return "event: message\ndata: " + message.toJson() + "\n\n";
    }
}
