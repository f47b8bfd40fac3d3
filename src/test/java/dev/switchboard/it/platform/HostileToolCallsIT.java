package dev.switchboard.it.platform;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.McpHttp;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.SharedEverything;
import dev.switchboard.platform.json.GeneratedCases;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.StringReader;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Numbers of any exponent in a tool call's arguments through an open {@code /mcp} session, where the call reaches the
 * policy and the audit, which hashes its input as canonical JSON with numbers in plain notation: the path that spent
 * seconds of CPU on {@code 1e9000000} before every reader was bounded. Within the reader's limits the call is served
 * and its input is found again by the audit look-up (the same canonical form twice); beyond them it gets -32700 with
 * the reason. Each is answered at once, and the audit chain stays valid. The cases are the limits' edges and a fixed
 * number generated from a fixed seed ({@link GeneratedCases}).
 */
class HostileToolCallsIT {

    /** The reader's scale limit (JsonLimits' default; the IT server does not change it). */
    private static final int MAX_SCALE = 1000;
    private static final Duration PROMPT = Duration.ofSeconds(10);

    @RegisterExtension
    static final SharedEverything backend = new SharedEverything("hostile-numbers");
    @RegisterExtension
    static final NewUser user = new NewUser();

    static String session;
    static int served;

    @BeforeAll
    static void open() {
        session = McpHttp.newSession(user.token());
    }

    @AfterAll
    static void theAuditChainIsIntact() {
        assertTrue(served > 0, "some calls were within the limits");
        JsonObject audit = Api.get("/api/audit/verify?tenant=default", Api.adminToken()).expect(200).json();
        assertTrue(audit.getBoolean("valid"), audit::toString);
        assertEquals(200, Api.get("/health/ready", null).status());
    }

    static Stream<Arguments> numbers() {
        long wide = 99_999_999_999L;
        return GeneratedCases.cases(0xa0d17L, 40,
                GeneratedCases.combinations(List.of("7", "123456789".repeat(3) + "12"), GeneratedCases.exponentEdges(wide)),
                random -> Arguments.of(GeneratedCases.digits(random, '1', 1, 30), GeneratedCases.exponent(random, wide)));
    }

    @ParameterizedTest(name = "{0}e{1}")
    @MethodSource("numbers")
    void aNumberOfAnyExponentIsServedAndAuditedOrRefusedWithTheReason(String digits, long exponent) throws Exception {
        String number = digits + "e" + exponent;
        boolean readable = Math.abs(exponent) < Integer.MAX_VALUE - 100
                && Math.abs((long) new BigDecimal(number).scale()) <= MAX_SCALE;
        String arguments = "{\"message\":\"number " + number + "\",\"n\":" + number + "}";
        String call = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"" + backend.name()
                + "__echo\",\"arguments\":" + arguments + "}}";
        long started = System.nanoTime();
        HttpResponse<String> reply = McpHttp.inSession(user.token(), session, call);
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertTrue(took.compareTo(PROMPT) < 0, number + " took " + took);
        if (!readable) {
            assertEquals(400, reply.statusCode(), reply::body);
            JsonObject error = McpHttp.json(reply).getJsonObject("error");
            assertEquals(-32700, error.getInt("code"), reply::body);
            assertTrue(error.getString("message").contains("is out of range"), reply::body);
            return;
        }
        JsonObject answer = McpHttp.response(reply);
        assertTrue(answer.containsKey("result"), answer::toString);
        assertFalse(answer.getJsonObject("result").getBoolean("isError", false), answer::toString);
        served++;
        JsonObject lookup = Json.createObjectBuilder()
                .add("input", Json.createReader(new StringReader(arguments)).readObject()).build();
        assertTrue(auditedWithin(lookup, Duration.ofSeconds(15)), "the call's input is found in the audit trail: " + arguments);
    }

    /** Audit rows are written asynchronously: look until one with this input shows. */
    private static boolean auditedWithin(JsonObject lookup, Duration wait) throws InterruptedException {
        Instant deadline = Instant.now().plus(wait);
        do {
            JsonArray found = Api.post("/api/audit/search-by-input", Api.adminToken(), lookup).expect(200).json().getJsonArray("data");
            if (!found.isEmpty()) {
                return true;
            }
            Thread.sleep(200);
        } while (Instant.now().isBefore(deadline));
        return false;
    }
}
