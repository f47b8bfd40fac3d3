package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.testing.McpSchemaValidator.Sender;
import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/** {@link McpClientPeer} over the WebSocket at {@code /mcp}: one text frame per message, both ways. */
final class SocketMcpClientPeer extends McpClientPeer {

    private final WebSocket socket;
    private final CompletableFuture<Integer> closed = new CompletableFuture<>();

    SocketMcpClientPeer(String token, String version) {
        super("client of /mcp over WebSocket", version);
        StringBuilder frame = new StringBuilder();
        WebSocket.Listener listener = new WebSocket.Listener() {
            @Override
            public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                frame.append(data);
                if (last) {
                    String text = frame.toString();
                    frame.setLength(0);
                    try (var reader = Json.createReader(new StringReader(text))) {
                        received(reader.readObject());
                    } catch (RuntimeException e) {
                        wire.add(Sender.SERVER,
                                Json.createObjectBuilder().add("notJsonRpc", text).build());
                    }
                }
                webSocket.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                closed.complete(statusCode);
                return null;
            }

            @Override
            public void onError(WebSocket webSocket, Throwable error) {
                closed.completeExceptionally(error);
            }
        };
        String url = Api.BASE.replaceFirst("^http", "ws") + "/mcp";
        this.socket = HttpClient.newHttpClient().newWebSocketBuilder().header("Authorization", "Bearer " + token)
                .subprotocols("mcp").buildAsync(URI.create(url), listener).orTimeout(30, TimeUnit.SECONDS).join();
    }

    @Override
    protected synchronized void transmit(JsonObject message) {
        // one send at a time: the JDK's WebSocket refuses a send while the previous one is pending
        socket.sendText(message.toString(), true).orTimeout(30, TimeUnit.SECONDS).join();
    }

    @Override
    public void close() {
        if (!socket.isOutputClosed()) {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").orTimeout(10, TimeUnit.SECONDS).exceptionally(e -> null).join();
        }
        closed.completeOnTimeout(-1, 10, TimeUnit.SECONDS).exceptionally(e -> -1).join();
        super.close();
    }
}
