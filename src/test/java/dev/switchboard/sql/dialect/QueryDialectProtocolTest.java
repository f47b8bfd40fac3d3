package dev.switchboard.sql.dialect;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import dev.switchboard.persistence.TestDatabase;
import dev.switchboard.security.JwtVerifier;
import dev.switchboard.security.DefaultTenant;
import dev.switchboard.sql.auth.PermissionMapping;
import dev.switchboard.sql.auth.StoredGrants;
import dev.switchboard.sql.auth.TokenVerifier;
import dev.switchboard.sql.service.QueryServiceTest;
import dev.switchboard.sql.session.SessionStore;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The dialect's rules on one connection: shape, negotiation, authentication, limits, notifications. */
class QueryDialectProtocolTest {

    static KeyPair key;
    static ScheduledExecutorService timers;
    static QueryServiceTest.Fixture fixture;
    static SessionStore store;

    @BeforeAll
    static void start() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        key = generator.generateKeyPair();
        timers = Executors.newScheduledThreadPool(1);
        QueryServiceTest.start();
        fixture = QueryServiceTest.fixture(TestDatabase.Kind.H2);
    }

    @AfterAll
    static void stop() throws Exception {
        fixture.close();
        timers.shutdownNow();
        QueryServiceTest.stop();
    }

    static QueryDialectProtocol dialect(Executor executor, DialectSettings settings, SessionWatch watch) {
        TokenVerifier verifier = verifier();
        PermissionMapping mapping = new PermissionMapping(Map.of("admin", List.of("admin:*"),
                "user", List.of("schema:read", "session:manage", "table:*:read")), () -> java.util.Set.of("users", "orders"),
                StoredGrants.Source.NONE, new DefaultTenant("default"));
        return new QueryDialectProtocol(fixture.methods(), verifier, mapping, executor, timers,
                watch == null ? new SessionWatch(fixture.store()) : watch, settings, Clock.systemUTC());
    }

    /** The server's verification path over a JWKS holding the test key as {@code k1}. */
    static TokenVerifier verifier() {
        RSAKey jwk = new RSAKey.Builder((RSAPublicKey) key.getPublic()).keyID("k1").build();
        JwtVerifier jwt = new JwtVerifier(new ImmutableJWKSet<>(new JWKSet(jwk)), "switchboard", "switchboard",
                Duration.ofSeconds(60), Clock.systemUTC());
        return new TokenVerifier(jwt::verify);
    }

    static String token(JsonObjectBuilder claims) throws Exception {
        String header = b64(Json.createObjectBuilder().add("alg", "RS256").add("kid", "k1").build().toString());
        String body = b64(claims.build().toString());
        Signature rsa = Signature.getInstance("SHA256withRSA");
        rsa.initSign(key.getPrivate());
        rsa.update((header + "." + body).getBytes(StandardCharsets.US_ASCII));
        return header + "." + body + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(rsa.sign());
    }

    static JsonObjectBuilder claims(String subject, String group, long expiresInSeconds) {
        long now = Instant.now().getEpochSecond();
        return Json.createObjectBuilder().add("iss", "switchboard").add("aud", "switchboard").add("sub", subject)
                .add("groups", Json.createArrayBuilder().add(group)).add("exp", now + expiresInSeconds);
    }

    private static String b64(String text) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    static JsonObject request(String id, String method, JsonObject params) {
        return Json.createObjectBuilder().add("type", "request").add("id", id).add("method", method).add("params", params).build();
    }

    static int code(JsonObject answer) {
        return answer.getJsonObject("error").getInt("code");
    }

    static JsonObject p(String json) {
        return Json.createReader(new java.io.StringReader(json)).readObject();
    }

    /** A grant or a revocation made while a connection is open applies to its next request: no new auth.authenticate. */
    @Test
    void grantsAreReadForEachRequestNotOnlyAtAuthentication() throws Exception {
        AtomicReference<StoredGrants> held = new AtomicReference<>(new StoredGrants(Set.of("table:employees:read"), Map.of()));
        PermissionMapping mapping = new PermissionMapping(Map.of("user", List.of("schema:read")), () -> Set.of("users", "employees"),
                (tenant, subject) -> tenant.equals("acme") && subject.equals("carol") ? held.get() : StoredGrants.NONE,
                new DefaultTenant("default"));
        QueryDialectProtocol dialect = new QueryDialectProtocol(fixture.methods(), verifier(), mapping, Runnable::run, timers,
                new SessionWatch(fixture.store()), DialectSettings.DEFAULTS, Clock.systemUTC());
        RecordingChannel c = new RecordingChannel();
        dialect.onMessage(request("n", "protocol.negotiate", p("{\"versions\":[\"1.0.0\"]}")), c);
        dialect.onMessage(request("a", "auth.authenticate", p("{\"token\":\"" + token(claims("carol", "user", 600).add("tenant", "acme")) + "\"}")), c);
        assertEquals(List.of("schema:read", "table:employees:read"), c.answer("a").getJsonObject("result").getJsonObject("user")
                .getJsonArray("permissions").getValuesAs(jakarta.json.JsonString::getString));
        dialect.onMessage(request("i1", "schema.info", p("{\"table\":\"employees\"}")), c);
        assertEquals("employees", c.answer("i1").getJsonObject("result").getJsonObject("table").getString("name"));

        held.set(StoredGrants.NONE);
        dialect.onMessage(request("i2", "schema.info", p("{\"table\":\"employees\"}")), c);
        JsonObject refused = c.answer("i2");
        assertEquals(-31001, code(refused));
        assertEquals("table:employees:read", refused.getJsonObject("error").getJsonObject("data").getString("required_permission"));
        assertEquals(List.of("schema:read"), refused.getJsonObject("error").getJsonObject("data").getJsonArray("user_permissions")
                .getValuesAs(jakarta.json.JsonString::getString));
    }

    @Test
    void negotiateAuthenticateThenQueryMethods() throws Exception {
        QueryDialectProtocol dialect = dialect(Executors.newCachedThreadPool(), DialectSettings.DEFAULTS, null);
        RecordingChannel c = new RecordingChannel();
        dialect.onMessage(request("s0", "schema.search", p("{\"query\":\"用户\"}")), c);
        assertEquals(-32001, code(c.answer("s0")), "nothing before negotiation");
        dialect.onMessage(request("n0", "protocol.negotiate", p("{\"versions\":[\"2.0.0\"]}")), c);
        assertEquals(-32001, code(c.answer("n0")));
        dialect.onMessage(request("n1", "protocol.negotiate", p("{\"versions\":[\"1.0.0\"]}")), c);
        assertEquals("1.0.0", c.answer("n1").getJsonObject("result").getString("version"));
        dialect.onMessage(request("s1", "schema.search", p("{\"query\":\"用户\"}")), c);
        assertEquals(-31000, code(c.answer("s1")));
        dialect.onMessage(request("a0", "auth.authenticate", p("{\"token\":\"" + token(claims("bob", "user", -600)) + "\"}")), c);
        JsonObject expired = c.answer("a0");
        assertEquals(-31000, code(expired));
        assertEquals("访问令牌已过期", expired.getJsonObject("error").getJsonObject("data").getString("reason"));
        assertTrue(expired.getJsonObject("error").getJsonObject("data").containsKey("expires_at"));
        String forged = token(claims("bob", "admin", 600).add("iss", "elsewhere"));
        dialect.onMessage(request("a1", "auth.authenticate", p("{\"token\":\"" + forged + "\"}")), c);
        assertEquals(-31000, code(c.answer("a1")));
        dialect.onMessage(request("a2", "auth.authenticate", p("{\"token\":\"" + token(claims("bob", "user", 600)) + "\"}")), c);
        JsonObject user = c.answer("a2").getJsonObject("result").getJsonObject("user");
        assertEquals("bob", user.getString("id"));
        assertEquals(List.of("schema:read", "session:manage", "table:orders:read", "table:users:read"),
                user.getJsonArray("permissions").getValuesAs(jakarta.json.JsonString::getString));
        dialect.onMessage(request("s2", "schema.search", p("{\"query\":\"用户订单\"}")), c);
        assertEquals("orders", c.answer("s2").getJsonObject("result").getJsonArray("tables").getJsonObject(0).getString("name"));
        dialect.onMessage(request("x", "no.such", p("{}")), c);
        assertEquals(-32601, code(c.answer("x")));
        dialect.onMessage(request("i1", "schema.info", p("{\"table\":\"employees\"}")), c);
        JsonObject denied = c.answer("i1").getJsonObject("error");
        assertEquals(-31001, denied.getInt("code"));
        assertEquals("table:employees:read", denied.getJsonObject("data").getString("required_permission"));
        dialect.onMessage(Json.createObjectBuilder().add("type", "request").add("id", "bad").build(), c);
        assertEquals(-32600, code(c.answer("bad")));
        dialect.onMessage(Json.createObjectBuilder().add("type", "request").add("id", "bp").add("method", "schema.info").add("params", 3).build(), c);
        assertEquals(-32602, code(c.answer("bp")));
        dialect.onMessage(request("ns", "session.get", p("{\"session_id\":\"session-none\"}")), c);
        assertEquals(-31002, code(c.answer("ns")));
    }

    @Test
    void rateAndConcurrencyLimitsPerConnection() throws Exception {
        List<Runnable> parked = new ArrayList<>();
        QueryDialectProtocol held = dialect(parked::add, DialectSettings.DEFAULTS, null);
        RecordingChannel c = new RecordingChannel();
        for (int i = 0; i < 11; i++) {
            held.onMessage(request("c" + i, "protocol.negotiate", p("{\"versions\":[\"1.0.0\"]}")), c);
        }
        JsonObject refused = c.answer("c10");
        assertEquals(-32003, code(refused));
        assertEquals(10, refused.getJsonObject("error").getJsonObject("data").getInt("max_concurrent_requests"));
        assertEquals(10, parked.size());
        parked.forEach(Runnable::run);
        RecordingChannel other = new RecordingChannel();
        held.onMessage(request("o", "protocol.negotiate", p("{\"versions\":[\"1.0.0\"]}")), other);
        assertEquals(1, parked.size() - 10, "another connection has limits of its own");

        QueryDialectProtocol direct = dialect(Runnable::run, DialectSettings.DEFAULTS, null);
        RecordingChannel busy = new RecordingChannel();
        for (int i = 0; i < 101; i++) {
            direct.onMessage(request("r" + i, "protocol.negotiate", p("{\"versions\":[\"1.0.0\"]}")), busy);
        }
        assertTrue(busy.answer("r99").containsKey("result"));
        JsonObject limited = busy.answer("r100");
        assertEquals(-32003, code(limited));
        assertEquals(100, limited.getJsonObject("error").getJsonObject("data").getInt("limit"));

        QueryDialectProtocol rejecting = dialect(r -> {
            throw new java.util.concurrent.RejectedExecutionException();
        }, DialectSettings.DEFAULTS, null);
        RecordingChannel refusedChannel = new RecordingChannel();
        rejecting.onMessage(request("z", "protocol.negotiate", p("{}")), refusedChannel);
        assertEquals(-32000, code(refusedChannel.answer("z")));
    }

    @Test
    void connectionsOverTheLimitAreRefusedOnTheirFirstMessageAndClosed() throws Exception {
        QueryDialectProtocol dialect = dialect(Runnable::run, new DialectSettings(2, 100, 10, 1024, Duration.ofSeconds(5)), null);
        RecordingChannel a = new RecordingChannel();
        RecordingChannel b = new RecordingChannel();
        RecordingChannel c = new RecordingChannel();
        dialect.onMessage(request("n", "protocol.negotiate", p("{\"versions\":[\"1.0.0\"]}")), a);
        dialect.onMessage(request("n", "protocol.negotiate", p("{\"versions\":[\"1.0.0\"]}")), b);
        dialect.onMessage(request("n2", "protocol.negotiate", p("{\"versions\":[\"1.0.0\"]}")), a);
        assertTrue(a.answer("n2").containsKey("result"), "an admitted connection's later messages are not counted again");
        dialect.onMessage(request("n", "protocol.negotiate", p("{\"versions\":[\"1.0.0\"]}")), c);
        JsonObject refused = c.answer("n");
        assertEquals(-32000, code(refused));
        assertEquals("too_many_connections", refused.getJsonObject("error").getJsonObject("data").getString("reason"));
        assertEquals(2, refused.getJsonObject("error").getJsonObject("data").getInt("max_connections"));
        assertEquals("too_many_connections", c.closedFor);
        assertEquals(1, c.sent.size(), "the refused message is not run");
        dialect.onClose(c);
        RecordingChannel d = new RecordingChannel();
        dialect.onMessage(request("n", "protocol.negotiate", p("{\"versions\":[\"1.0.0\"]}")), d);
        assertEquals(-32000, code(d.answer("n")), "closing a refused connection frees no place");
        dialect.onClose(a);
        dialect.onClose(a);
        RecordingChannel e = new RecordingChannel();
        dialect.onMessage(request("n", "protocol.negotiate", p("{\"versions\":[\"1.0.0\"]}")), e);
        assertTrue(e.answer("n").containsKey("result"), "a closed connection's place is free again");
        assertEquals(null, e.closedFor);
        RecordingChannel f = new RecordingChannel();
        dialect.onMessage(Json.createObjectBuilder().add("type", "request").build(), f);
        assertEquals(-32000, code(f.sent.get(0)), "a connection is counted from its first message, whatever its shape");
        assertEquals(2, dialect.broadcast(p("{\"status\":\"maintenance\"}")), "only admitted connections hear system.status");
    }

    @Test
    void nonPositiveLimitsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new DialectSettings(0, 100, 10, 1024, Duration.ofSeconds(5)));
    }

    @Test
    void expiredSessionsAreAnnounced() throws Exception {
        MutableClock clock = new MutableClock();
        SessionStore shortLived = new SessionStore(QueryServiceTest.sessionDatabase(), Duration.ofHours(1), clock);
        QueryServiceTest.Fixture f = fixture;
        SessionWatch watch = new SessionWatch(shortLived);
        QueryDialectProtocol dialect = new QueryDialectProtocol(new QueryMethods(f.query(), f.schema(), f.suggest(),
                new dev.switchboard.sql.service.SessionService(shortLived)),
                verifier(),
                new PermissionMapping(Map.of("user", List.of("session:manage")), java.util.Set::of, StoredGrants.Source.NONE,
                        new DefaultTenant("default")), Runnable::run, timers, watch,
                DialectSettings.DEFAULTS, Clock.systemUTC());
        RecordingChannel c = new RecordingChannel();
        dialect.onMessage(request("n", "protocol.negotiate", p("{\"versions\":[\"1.0.0\"]}")), c);
        dialect.onMessage(request("a", "auth.authenticate", p("{\"token\":\"" + token(claims("eve", "user", 600)) + "\"}")), c);
        dialect.onMessage(request("s", "session.create", p("{}")), c);
        String id = c.answer("s").getJsonObject("result").getString("session_id");
        watch.sweep();
        assertTrue(c.sent.stream().noneMatch(m -> "session.expired".equals(m.getString("method", ""))));
        clock.now = clock.now.plus(Duration.ofMinutes(61));
        watch.sweep();
        JsonObject note = c.sent.stream().filter(m -> "session.expired".equals(m.getString("method", ""))).findFirst().orElseThrow();
        assertEquals("notification", note.getString("type"));
        assertEquals(id, note.getJsonObject("params").getString("session_id"));
        dialect.onMessage(request("g", "session.get", p("{\"session_id\":\"" + id + "\"}")), c);
        assertEquals(-31002, code(c.answer("g")));
    }

    @Test
    void systemStatusReachesEveryOpenConnection() throws Exception {
        QueryDialectProtocol dialect = dialect(Runnable::run, DialectSettings.DEFAULTS, null);
        RecordingChannel a = new RecordingChannel();
        RecordingChannel b = new RecordingChannel();
        dialect.onMessage(request("n", "protocol.negotiate", p("{\"versions\":[\"1.0.0\"]}")), a);
        dialect.onMessage(request("n", "protocol.negotiate", p("{\"versions\":[\"1.0.0\"]}")), b);
        dialect.onClose(b);
        assertEquals(1, dialect.broadcast(p("{\"status\":\"maintenance\",\"message\":\"soon\"}")));
        JsonObject note = a.sent.get(a.sent.size() - 1);
        assertEquals("system.status", note.getString("method"));
        assertEquals("maintenance", note.getJsonObject("params").getString("status"));
        assertTrue(b.sent.stream().noneMatch(m -> "system.status".equals(m.getString("method", ""))));
    }

    static final class MutableClock extends Clock {
        volatile Instant now = Instant.now();

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
