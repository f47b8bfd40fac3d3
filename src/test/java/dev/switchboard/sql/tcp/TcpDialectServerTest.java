package dev.switchboard.sql.tcp;

import dev.switchboard.sql.dialect.DialectChannel;
import dev.switchboard.sql.dialect.DialectMessageLimit;
import dev.switchboard.sql.dialect.QueryDialectHandler;
import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Newline-delimited JSON over a socket: framing, parse and size errors, connection limit, close callback. */
class TcpDialectServerTest {

    /** Echoes each message's id back as a response, so framing is all that is tested here. */
    static final class Echo implements QueryDialectHandler {
        final CountDownLatch closed = new CountDownLatch(1);

        @Override
        public void onMessage(JsonObject message, DialectChannel channel) {
            if (message.getString("id", "").equals("db-down")) {
                // what the server's handler bean does when the query database cannot be opened (wrapped, as CDI may)
                throw new IllegalStateException(new QueryException(QueryErrorCode.DATABASE, "查询数据库不可用", Map.of("mysql_errno", 0)));
            }
            channel.send(Json.createObjectBuilder().add("type", "response").add("id", message.get("id"))
                    .add("result", Json.createObjectBuilder().add("channel", channel.id())).build());
        }

        @Override
        public void onClose(DialectChannel channel) {
            closed.countDown();
        }
    }

    static JsonObject read(BufferedReader in) throws Exception {
        return Json.createReader(new StringReader(in.readLine())).readObject();
    }

    @Test
    void framingAndErrors() throws Exception {
        Echo echo = new Echo();
        try (TcpDialectServer server = new TcpDialectServer(echo, Executors.defaultThreadFactory(), "127.0.0.1", 0, 1, 64);
             Socket socket = new Socket("127.0.0.1", server.port())) {
            OutputStream out = socket.getOutputStream();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            out.write("{\"type\":\"request\",\"id\":\"1\"}\n{\"type\":\"request\",\"id\":\"2\"}\n".getBytes(StandardCharsets.UTF_8));
            assertEquals("1", read(in).getString("id"));
            assertEquals("2", read(in).getString("id"));
            out.write("{not json\n".getBytes(StandardCharsets.UTF_8));
            assertEquals(-32700, read(in).getJsonObject("error").getInt("code"));
            out.write("[1,2]\n".getBytes(StandardCharsets.UTF_8));
            assertEquals(-32600, read(in).getJsonObject("error").getInt("code"));
            out.write(("{\"id\":\"" + "x".repeat(100) + "\"}\n{\"id\":\"after\"}\n").getBytes(StandardCharsets.UTF_8));
            JsonObject tooLarge = read(in);
            assertEquals(-32600, tooLarge.getJsonObject("error").getInt("code"));
            assertEquals(64, tooLarge.getJsonObject("error").getJsonObject("data").getInt("max_message_bytes"));
            assertEquals(109, tooLarge.getJsonObject("error").getJsonObject("data").getInt("message_bytes"));
            assertEquals(QueryErrorCode.INVALID_REQUEST.code(), DialectMessageLimit.TOO_LARGE_CODE, "the seed's code, kept beside the dialect's interface");
            assertEquals("after", read(in).getString("id"), "the connection goes on after an oversized message");
            out.write("{\"id\":\"db-down\"}\n".getBytes(StandardCharsets.UTF_8));
            JsonObject down = read(in);
            assertEquals(-31003, down.getJsonObject("error").getInt("code"));
            assertEquals("db-down", down.getString("id"));
            try (Socket second = new Socket("127.0.0.1", server.port())) {
                BufferedReader refused = new BufferedReader(new InputStreamReader(second.getInputStream(), StandardCharsets.UTF_8));
                assertEquals(-32000, read(refused).getJsonObject("error").getInt("code"));
            }
            socket.close();
            assertTrue(echo.closed.await(5, TimeUnit.SECONDS));
        }
    }
}
