package dev.switchboard.sql.tcp;

import dev.switchboard.platform.json.HostileCorpus;
import dev.switchboard.platform.json.HostileCorpus.Document;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The query dialect over a real TCP socket: each hostile document of the corpus, one per line, is answered with the
 * dialect's own parse error carrying the reader's reason (or its invalid-request error for a value that is no object),
 * and the connection goes on serving.
 */
class HostileDialectTest {

    static EchoLine line;

    @BeforeAll
    static void start() throws Exception {
        line = new EchoLine();
    }

    @AfterAll
    static void stop() throws Exception {
        line.close();
    }

    static List<Document> corpus() {
        return HostileCorpus.all().stream().filter(d -> d.bytes().length > 0).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void eachHostileLineGetsTheDialectsErrorAndTheConnectionGoesOn(Document document) throws Exception {
        long before = HostileCorpus.processCpuNanos();
        line.send(document.bytes());
        line.send("{\"type\":\"request\",\"id\":\"after\"}".getBytes(StandardCharsets.UTF_8));
        JsonObject answer = line.read();
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
        assertEquals("after", line.read().getString("id"));
        assertTrue(cpu < HostileCorpus.CPU_BOUND_NANOS, document + " cost " + cpu / 1_000_000 + " ms of CPU");
    }

}
