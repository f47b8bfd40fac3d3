package dev.switchboard.sql.auth;

import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;

import java.io.IOException;
import java.io.StringReader;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.RSAPublicKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The issuer's public keys from its JWKS ({@code jwt.jwks-uri}, the document MicroProfile JWT reads too), by key id.
 * Fetched on first use and again when a token names an unknown key (a rotation), at most every
 * {@link #REFETCH_PAUSE} so forged key ids cannot make us hammer the issuer. A caller that misses a key while a fetch
 * is under way waits for it and looks again (before, the clients authenticating at the same moment as the first
 * were refused with "unknown key").
 */
public final class JwksKeys implements Function<String, Optional<RSAPublicKey>> {

    private static final Logger LOG = Logger.getLogger(JwksKeys.class.getName());
    static final Duration REFETCH_PAUSE = Duration.ofSeconds(30);

    /** Reads the JWKS document once; may fail. */
    @FunctionalInterface
    public interface Source {
        JsonObject fetch() throws Exception;
    }

    private final URI uri;
    private final Source source;
    private final Clock clock;
    private volatile Map<String, RSAPublicKey> keys = Map.of();
    private volatile Instant fetchedAt = Instant.MIN;

    /** Keys read with a plain GET of {@code uri}: no retry, no timeout beyond the request's own. */
    public JwksKeys(URI uri, HttpClient http, Clock clock) {
        this(uri, () -> fetch(http, uri), clock);
    }

    /** Keys read by {@code source} (in the server: {@link JwksFetch}, with Fault Tolerance's timeout and retries). */
    public JwksKeys(URI uri, Source source, Clock clock) {
        this.uri = uri;
        this.source = source;
        this.clock = clock;
    }

    /** One GET of the JWKS document; a status other than 200 is a failure, not an empty key set. */
    public static JsonObject fetch(HttpClient http, URI uri) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("HTTP " + response.statusCode() + " from " + uri);
        }
        try (JsonReader reader = JSON.createReader(new StringReader(response.body()))) {
            return reader.readObject();
        }
    }

    @Override
    public Optional<RSAPublicKey> apply(String kid) {
        RSAPublicKey key = keys.get(kid);
        return Optional.ofNullable(key != null ? key : fetched(kid));
    }

    /** The key after the fetch under way (if any) and, when none had it and the pause is over, a fetch of our own. */
    private synchronized RSAPublicKey fetched(String kid) {
        RSAPublicKey key = keys.get(kid);
        if (key == null && clock.instant().isAfter(fetchedAt.plus(REFETCH_PAUSE))) {
            refetch();
            key = keys.get(kid);
        }
        return key;
    }

    private void refetch() {
        fetchedAt = clock.instant();
        try {
            keys = parse(source.fetch());
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.log(Level.WARNING, "Cannot read JWKS from " + uri + ": " + e.getMessage());
        }
    }

    static Map<String, RSAPublicKey> parse(JsonObject jwks) throws GeneralSecurityException {
        Map<String, RSAPublicKey> parsed = new HashMap<>();
        KeyFactory rsa = KeyFactory.getInstance("RSA");
        for (JsonValue value : jwks.getJsonArray("keys")) {
            JsonObject jwk = value.asJsonObject();
            if ("RSA".equals(jwk.getString("kty", ""))) {
                BigInteger n = new BigInteger(1, Base64.getUrlDecoder().decode(jwk.getString("n")));
                BigInteger e = new BigInteger(1, Base64.getUrlDecoder().decode(jwk.getString("e")));
                parsed.put(jwk.getString("kid", ""), (RSAPublicKey) rsa.generatePublic(new RSAPublicKeySpec(n, e)));
            }
        }
        return Map.copyOf(parsed);
    }
}
