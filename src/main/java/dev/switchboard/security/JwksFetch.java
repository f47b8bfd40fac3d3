package dev.switchboard.security;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * Reads the issuer's JWKS document under MicroProfile Fault Tolerance, for {@link BearerTokens}' key source: each
 * attempt has {@code @Timeout} (5 s), and an attempt that failed to connect, got a status other than 200 or timed out
 * is tried again twice, 500 ms apart, so a JWKS endpoint that blinks (the built-in issuer while the server starts, a
 * proxy restarting) does not refuse the callers of the key source's next refetch pause. Settings:
 * {@code dev.switchboard.security.JwksFetch/fetch/Timeout/value}, {@code .../Retry/maxRetries}, {@code .../Retry/delay}.
 */
@ApplicationScoped
public class JwksFetch {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** The JWKS document's text. */
    @Timeout(value = 5, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 500, delayUnit = ChronoUnit.MILLIS, retryOn = {IOException.class, TimeoutException.class})
    public String fetch(URI uri) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("HTTP " + response.statusCode() + " from " + uri);
        }
        return response.body();
    }
}
