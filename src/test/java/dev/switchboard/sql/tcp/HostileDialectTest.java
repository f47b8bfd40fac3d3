package dev.switchboard.sql.tcp;

import dev.switchboard.platform.json.HostileCorpus;
import dev.switchboard.platform.json.HostileCorpus.Document;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The query dialect over a real TCP socket: each hostile document of the corpus, one per line, is answered with the
 * dialect's own parse error carrying the reader's reason (or its invalid-request error for a value that is no object),
 * and the connection goes on serving.
 */
class HostileDialectTest {

    static TcpDialectServer server;
    static Socket socket;
    static OutputStream out;
    static BufferedReader in;

    @BeforeAll
    static void start() throws Exception {
        server = new TcpDialectServer(new TcpDialectServerTest.Echo(), Executors.defaultThreadFactory(), "127.0.0.1", 0, 1, 8 * 1024 * 1024);
        socket = new Socket("127.0.0.1", server.port());
        socket.setSoTimeout(20_000);
        out = socket.getOutputStream();
        in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
    }

    @AfterAll
    static void stop() throws Exception {
        socket.close();
        server.close();
    }

    static List<Document> corpus() {
        return HostileCorpus.all().stream().filter(d -> d.bytes().length > 0).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void eachHostileLineGetsTheDialectsErrorAndTheConnectionGoesOn(Document document) throws Exception {
        long before = HostileCorpus.processCpuNanos();
        out.write(document.bytes());
        out.write("\n{\"type\":\"request\",\"id\":\"after\"}\n".getBytes(StandardCharsets.UTF_8));
        out.flush();
        JsonObject answer = TcpDialectServerTest.read(in);
        long cpu = HostileCorpus.processCpuNanos() - before;
        if (document.refused()) {
            JsonObject error = answer.getJsonObject("error");
            assertEquals(-32700, error.getInt("code"), answer::toString);
            assertEquals("JSON 解析错误", error.getString("message"));
            assertTrue(error.getJsonObject("data").getString("reason").contains(document.refusal()), answer::toString);
        } else if ("object".equals(document.topLevel())) {
            assertTrue(answer.containsKey("result"), "the echo handler got the message: " + answer);
        } else {
            assertEquals("{\"code\":-32600,\"message\":\"消息须为 JSON 对象\"}", answer.getJsonObject("error").toString());
        }
        assertEquals("after", TcpDialectServerTest.read(in).getString("id"));
        assertTrue(cpu < HostileCorpus.CPU_BOUND_NANOS, document + " cost " + cpu / 1_000_000 + " ms of CPU");
    }

}
