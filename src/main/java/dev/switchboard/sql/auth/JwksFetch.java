package dev.switchboard.sql.auth;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonObject;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.temporal.ChronoUnit;

/**
 * Reads the issuer's JWKS under MicroProfile Fault Tolerance: each attempt has {@code @Timeout} (5 s), and an attempt
 * that failed to connect, got a status other than 200 or timed out is tried again twice, 500 ms apart, so a JWKS
 * endpoint that blinks (the built-in issuer while the server starts, a proxy restarting) does not refuse the clients of
 * the next {@link JwksKeys#REFETCH_PAUSE}. Settings: {@code dev.switchboard.sql.auth.JwksFetch/fetch/Timeout/value},
 * {@code .../Retry/maxRetries}, {@code .../Retry/delay}.
 */
@ApplicationScoped
public class JwksFetch {

    private final HttpClient http = HttpClient.newHttpClient();

    @Timeout(value = 5, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 500, delayUnit = ChronoUnit.MILLIS, retryOn = {IOException.class, TimeoutException.class})
    public JsonObject fetch(URI uri) throws IOException, InterruptedException {
        return JwksKeys.fetch(http, uri);
    }
}
