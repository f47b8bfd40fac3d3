package dev.switchboard.sql.auth;

import com.sun.net.httpserver.HttpServer;
import dev.switchboard.sql.Caller;
import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.ArrayList;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tokens the dialect accepts and refuses, keys from a real JWKS endpoint, and the permission mapping. */
class TokenVerifierTest {

    static KeyPair key;
    static KeyPair foreign;

    @BeforeAll
    static void keys() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        key = generator.generateKeyPair();
        foreign = generator.generateKeyPair();
    }

    static String b64(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    static String token(JsonObject header, JsonObjectBuilder claims, KeyPair signer) throws Exception {
        String signingInput = b64(header.toString().getBytes(StandardCharsets.UTF_8)) + "."
                + b64(claims.build().toString().getBytes(StandardCharsets.UTF_8));
        Signature rsa = Signature.getInstance("SHA256withRSA");
        rsa.initSign(signer.getPrivate());
        rsa.update(signingInput.getBytes(StandardCharsets.US_ASCII));
        return signingInput + "." + b64(rsa.sign());
    }

    static JsonObject header(String alg) {
        return Json.createObjectBuilder().add("alg", alg).add("kid", "k1").build();
    }

    static JsonObjectBuilder claims() {
        return Json.createObjectBuilder().add("iss", "switchboard").add("aud", "switchboard").add("sub", "alice")
                .add("upn", "alice").add("groups", Json.createArrayBuilder().add("user"))
                .add("exp", Instant.now().getEpochSecond() + 600);
    }

    static String unsigned(BigInteger value) {
        byte[] bytes = value.toByteArray();
        return b64(bytes[0] == 0 ? Arrays.copyOfRange(bytes, 1, bytes.length) : bytes);
    }

    static String reason(Runnable call) {
        QueryException e = assertThrows(QueryException.class, call::run);
        assertEquals(QueryErrorCode.AUTHENTICATION, e.code());
        return (String) e.data().get("reason");
    }

    @Test
    void keysComeFromTheJwksEndpointAndForgeriesAreRefused() throws Exception {
        RSAPublicKey pub = (RSAPublicKey) key.getPublic();
        String jwks = Json.createObjectBuilder().add("keys", Json.createArrayBuilder().add(Json.createObjectBuilder()
                .add("kty", "RSA").add("kid", "k1").add("n", unsigned(pub.getModulus())).add("e", unsigned(pub.getPublicExponent())))).build().toString();
        AtomicInteger fetches = new AtomicInteger();
        HttpServer issuer = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        issuer.createContext("/jwks", exchange -> {
            fetches.incrementAndGet();
            byte[] body = jwks.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        issuer.start();
        try {
            JwksKeys keys = new JwksKeys(URI.create("http://127.0.0.1:" + issuer.getAddress().getPort() + "/jwks"),
                    HttpClient.newHttpClient(), Clock.systemUTC());
            TokenVerifier verifier = new TokenVerifier(keys, "switchboard", "switchboard", Clock.systemUTC());
            assertEquals("alice", verifier.verify(token(header("RS256"), claims(), key)).getString("sub"));
            assertEquals("令牌签名无效", reason(() -> verify(verifier, header("RS256"), claims(), foreign)));
            assertEquals("不支持的签名算法", reason(() -> verify(verifier, header("HS256"), claims(), key)));
            assertEquals("令牌签发者不受信任", reason(() -> verify(verifier, header("RS256"), claims().add("iss", "evil"), key)));
            assertEquals("令牌受众不匹配", reason(() -> verify(verifier, header("RS256"), claims().add("aud", "other"), key)));
            assertEquals("访问令牌已过期", reason(() -> verify(verifier, header("RS256"),
                    claims().add("exp", Instant.now().getEpochSecond() - 1), key)));
            assertEquals("未知的签名密钥", reason(() -> verify(verifier, Json.createObjectBuilder().add("alg", "RS256").add("kid", "k2").build(), claims(), key)));
            assertEquals("令牌格式无效", reason(() -> verifier.verify("a.b")));
            String none = b64("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8)) + "." + b64(claims().build().toString().getBytes(StandardCharsets.UTF_8)) + ".";
            assertEquals("不支持的签名算法", reason(() -> verifier.verify(none)));
            assertEquals(1, fetches.get(), "an unknown key id refetches at most every " + JwksKeys.REFETCH_PAUSE);
        } finally {
            issuer.stop(0);
        }
    }

    /** Clients that authenticate at the same moment as the first: they wait for its fetch instead of being refused. */
    @Test
    void callersDuringTheFirstFetchWaitForIt() throws Exception {
        RSAPublicKey pub = (RSAPublicKey) key.getPublic();
        String jwks = Json.createObjectBuilder().add("keys", Json.createArrayBuilder().add(Json.createObjectBuilder()
                .add("kty", "RSA").add("kid", "k1").add("n", unsigned(pub.getModulus())).add("e", unsigned(pub.getPublicExponent())))).build().toString();
        AtomicInteger fetches = new AtomicInteger();
        HttpServer issuer = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        issuer.createContext("/jwks", exchange -> {
            fetches.incrementAndGet();
            try {
                Thread.sleep(300); // a slow issuer: the other callers arrive while this fetch runs
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = jwks.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        issuer.setExecutor(Executors.newCachedThreadPool());
        issuer.start();
        ExecutorService callers = Executors.newFixedThreadPool(4);
        try {
            JwksKeys keys = new JwksKeys(URI.create("http://127.0.0.1:" + issuer.getAddress().getPort() + "/jwks"),
                    HttpClient.newHttpClient(), Clock.systemUTC());
            List<Future<Optional<RSAPublicKey>>> found = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                found.add(callers.submit(() -> keys.apply("k1")));
            }
            for (Future<Optional<RSAPublicKey>> f : found) {
                assertEquals(pub, f.get(10, TimeUnit.SECONDS).orElseThrow(() -> new AssertionError("a caller was refused")));
            }
            assertEquals(1, fetches.get(), "one fetch served them all");
        } finally {
            callers.shutdownNow();
            issuer.stop(0);
        }
    }

    private static void verify(TokenVerifier verifier, JsonObject header, JsonObjectBuilder claims, KeyPair signer) {
        try {
            verifier.verify(token(header, claims, signer));
        } catch (QueryException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void permissionsFromTheClaimOrFromTheRoleMapping() {
        PermissionMapping mapping = new PermissionMapping(Map.of("admin", List.of("admin:*"),
                "user", List.of("schema:read", "table:*:read")), () -> Set.of("users", "orders"));
        Caller user = mapping.caller(claims().build());
        assertEquals(List.of("schema:read", "table:orders:read", "table:users:read"), user.permissions().sorted());
        assertEquals("alice", user.username());
        Caller claimed = mapping.caller(claims().add("permissions", Json.createArrayBuilder().add("table:orders:read")).build());
        assertEquals(List.of("table:orders:read"), claimed.permissions().sorted(), "the token's own claim wins");
        Caller admin = mapping.caller(claims().add("groups", Json.createArrayBuilder().add("admin").add("user")).build());
        assertTrue(admin.permissions().isAdmin());
        Caller stranger = mapping.caller(claims().add("groups", Json.createArrayBuilder().add("guest")).build());
        assertEquals(List.of(), stranger.permissions().sorted());
    }

    /** The built-in server maps roles on every call: the expansion is reused until the catalog's tables change. */
    @Test
    void roleExpansionsFollowTheCatalogsTables() {
        java.util.concurrent.atomic.AtomicReference<Set<String>> tables = new java.util.concurrent.atomic.AtomicReference<>(Set.of("users"));
        PermissionMapping mapping = new PermissionMapping(Map.of("user", List.of("table:*:read")), tables::get);
        Caller first = mapping.caller("alice", List.of("user"), Instant.MAX);
        assertTrue(first.permissions() == mapping.caller("bob", List.of("user"), Instant.MAX).permissions(), "expanded once");
        tables.set(Set.of("users", "orders"));
        assertEquals(List.of("table:orders:read", "table:users:read"), mapping.caller("alice", List.of("user"), Instant.MAX).permissions().sorted());
        tables.set(Set.of("orders"));
        assertEquals(List.of("table:orders:read"), mapping.caller("alice", List.of("user"), Instant.MAX).permissions().sorted(),
                "a dropped table is no longer granted");
    }

    @Test
    void aCallerKnownByRolesOnlyGetsWhatTheMappingGivesThem() {
        PermissionMapping mapping = new PermissionMapping(Map.of("admin", List.of("admin:*"),
                "user", List.of("schema:read", "table:*:read")), () -> Set.of("users", "orders"));
        Caller user = mapping.caller("bob", List.of("user"), Instant.MAX);
        assertEquals("bob", user.userId());
        assertEquals(List.of("schema:read", "table:orders:read", "table:users:read"), user.permissions().sorted());
        assertTrue(mapping.caller("root", List.of("user", "admin"), Instant.MAX).permissions().isAdmin());
        assertEquals(List.of(), mapping.caller("guest", List.of("guest"), Instant.MAX).permissions().sorted());
    }
}
