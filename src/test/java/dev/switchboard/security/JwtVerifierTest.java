package dev.switchboard.security;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Every token shape the verification path must refuse, each with its reason, against keys served by a real JWKS
 * endpoint; and the leeway it must give (clock skew) without giving more.
 */
class JwtVerifierTest {

    static final Instant NOW = Instant.parse("2026-11-25T04:00:00Z");
    static final KeyPair KEY = TestKeys.PAIR;
    static KeyPair foreign;
    static HttpServer issuer;
    static final AtomicInteger fetches = new AtomicInteger();
    static URI jwksUri;

    @BeforeAll
    static void start() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        foreign = generator.generateKeyPair();
        String jwks = new JWKSet(new RSAKey.Builder((RSAPublicKey) KEY.getPublic()).keyID("k1").build()).toString();
        issuer = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        issuer.createContext("/jwks", exchange -> {
            fetches.incrementAndGet();
            try {
                Thread.sleep(200); // a slow issuer: callers arriving meanwhile wait for this fetch
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = jwks.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        issuer.setExecutor(Executors.newCachedThreadPool());
        issuer.start();
        jwksUri = URI.create("http://127.0.0.1:" + issuer.getAddress().getPort() + "/jwks");
    }

    @AfterAll
    static void stop() {
        issuer.stop(0);
    }

    static JwtVerifier verifier() throws Exception {
        return new JwtVerifier(JwtVerifier.remoteKeys(jwksUri.toURL()), "switchboard", "switchboard",
                Duration.ofSeconds(60), Clock.fixed(NOW, ZoneOffset.UTC));
    }

    static JWTClaimsSet.Builder claims() {
        return new JWTClaimsSet.Builder().issuer("switchboard").audience("switchboard").subject("alice")
                .claim("groups", List.of("user")).issueTime(Date.from(NOW))
                .expirationTime(Date.from(NOW.plusSeconds(600)));
    }

    static JWSHeader.Builder rs256() {
        return new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("k1").type(JOSEObjectType.JWT);
    }

    static String signed(JWSHeader header, JWTClaimsSet claims, KeyPair by) throws Exception {
        SignedJWT jwt = new SignedJWT(header, claims);
        jwt.sign(new RSASSASigner(by.getPrivate()));
        return jwt.serialize();
    }

    static String token(UnaryOperator<JWTClaimsSet.Builder> change) throws Exception {
        return signed(rs256().build(), change.apply(claims()).build(), KEY);
    }

    static TokenRefused refused(JwtVerifier verifier, String token) {
        return assertThrows(TokenRefused.class, () -> verifier.verify(token));
    }

    @Test
    void aGoodTokenGivesItsClaims() throws Exception {
        assertEquals("alice", verifier().verify(token(c -> c)).getSubject());
    }

    @Test
    void expiredAndNotYetValidWithinTheClockSkewOnly() throws Exception {
        JwtVerifier verifier = verifier();
        Instant expired = NOW.minusSeconds(61);
        TokenRefused late = refused(verifier, token(c -> c.expirationTime(Date.from(expired))));
        assertEquals(TokenRefused.Reason.EXPIRED, late.reason());
        assertEquals(expired, late.expiresAt());
        assertEquals("alice", verifier.verify(token(c -> c.expirationTime(Date.from(NOW.minusSeconds(30))))).getSubject(),
                "expired 30 s ago is within the 60 s skew");
        assertEquals(TokenRefused.Reason.NOT_YET_VALID,
                refused(verifier, token(c -> c.notBeforeTime(Date.from(NOW.plusSeconds(120))))).reason());
        assertEquals("alice", verifier.verify(token(c -> c.notBeforeTime(Date.from(NOW.plusSeconds(30))))).getSubject(),
                "valid in 30 s is within the 60 s skew");
    }

    @Test
    void issuerAudienceAndRequiredClaims() throws Exception {
        JwtVerifier verifier = verifier();
        assertEquals(TokenRefused.Reason.ISSUER, refused(verifier, token(c -> c.issuer("evil"))).reason());
        assertEquals(TokenRefused.Reason.ISSUER, refused(verifier, token(c -> c.issuer(null))).reason());
        assertEquals(TokenRefused.Reason.AUDIENCE, refused(verifier, token(c -> c.audience("other"))).reason());
        assertEquals(TokenRefused.Reason.AUDIENCE, refused(verifier, token(c -> c.audience((String) null))).reason());
        assertEquals("alice", verifier.verify(token(c -> c.audience(List.of("other", "switchboard")))).getSubject());
        assertEquals(TokenRefused.Reason.MISSING_EXPIRY, refused(verifier, token(c -> c.expirationTime(null))).reason());
        assertEquals(TokenRefused.Reason.MISSING_SUBJECT, refused(verifier, token(c -> c.subject(null))).reason());
        assertEquals(TokenRefused.Reason.MISSING_SUBJECT, refused(verifier, token(c -> c.subject(" "))).reason());
    }

    @Test
    void algorithmsOtherThanRs256AreRefused() throws Exception {
        JwtVerifier verifier = verifier();
        assertEquals(TokenRefused.Reason.ALGORITHM,
                refused(verifier, new PlainJWT(claims().build()).serialize()).reason(), "alg: none");
        // the classic confusion: HMAC keyed with the issuer's public key, which anyone can fetch from the JWKS
        SignedJWT hs256 = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("k1").build(), claims().build());
        hs256.sign(new MACSigner(KEY.getPublic().getEncoded()));
        assertEquals(TokenRefused.Reason.ALGORITHM, refused(verifier, hs256.serialize()).reason());
        assertEquals(TokenRefused.Reason.MALFORMED, refused(verifier, "a.b").reason());
        assertEquals(TokenRefused.Reason.MALFORMED, refused(verifier, null).reason());
    }

    @Test
    void signatureKeyAndCriticalHeader() throws Exception {
        JwtVerifier verifier = verifier();
        assertEquals(TokenRefused.Reason.SIGNATURE, refused(verifier, signed(rs256().build(), claims().build(), foreign)).reason());
        String good = token(c -> c);
        String tampered = good.substring(0, good.indexOf('.') + 1)
                + com.nimbusds.jose.util.Base64URL.encode(claims().subject("root").build().toString()) + good.substring(good.lastIndexOf('.'));
        assertEquals(TokenRefused.Reason.SIGNATURE, refused(verifier, tampered).reason());
        assertEquals(TokenRefused.Reason.UNKNOWN_KEY,
                refused(verifier, signed(rs256().keyID("k2").build(), claims().build(), KEY)).reason());
        JWSHeader crit = rs256().criticalParams(Set.of("x-switchboard-must-understand"))
                .customParam("x-switchboard-must-understand", true).build();
        assertEquals(TokenRefused.Reason.CRITICAL_HEADER, refused(verifier, signed(crit, claims().build(), KEY)).reason());
        assertEquals(TokenRefused.Reason.ALGORITHM, refused(verifier, signed(
                new JWSHeader.Builder(JWSAlgorithm.RS512).keyID("k1").build(), claims().build(), KEY)).reason());
    }

    /** Forged key ids cannot make the verifier hammer the issuer; clients arriving during the first fetch wait for it. */
    @Test
    void theJwksIsFetchedOnceForConcurrentCallersAndUnknownKeys() throws Exception {
        JwtVerifier verifier = verifier();
        int before = fetches.get();
        ExecutorService callers = Executors.newFixedThreadPool(4);
        try {
            String good = token(c -> c);
            List<Future<JWTClaimsSet>> results = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                results.add(callers.submit(() -> verifier.verify(good)));
            }
            for (Future<JWTClaimsSet> result : results) {
                assertEquals("alice", result.get(10, TimeUnit.SECONDS).getSubject());
            }
            for (int i = 0; i < 5; i++) {
                String forged = signed(rs256().keyID("forged-" + i).build(), claims().build(), KEY);
                assertEquals(TokenRefused.Reason.UNKNOWN_KEY, refused(verifier, forged).reason());
            }
        } finally {
            callers.shutdownNow();
        }
        int used = fetches.get() - before;
        assertEquals(true, used <= 2, "one fetch, at most one refetch for unknown keys within 30 s, was " + used);
    }
}
