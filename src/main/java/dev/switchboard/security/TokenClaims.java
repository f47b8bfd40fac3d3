package dev.switchboard.security;

import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;

import java.io.ByteArrayInputStream;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The claims of a compact JWS whose signature the container has already verified: its payload segment as JSON.
 * Never use this on a token that was not validated first.
 */
final class TokenClaims {

    private TokenClaims() {
    }

    /** The payload's claims; an empty object when the token has no readable JSON payload. */
    static JsonObject of(String compactJws) {
        int first = compactJws == null ? -1 : compactJws.indexOf('.');
        int second = first < 0 ? -1 : compactJws.indexOf('.', first + 1);
        if (second < 0) {
            return JsonObject.EMPTY_JSON_OBJECT;
        }
        try (JsonReader reader = JSON.createReader(new ByteArrayInputStream(
                Base64Url.decode(compactJws.substring(first + 1, second))))) {
            return reader.readObject();
        } catch (JsonException | IllegalArgumentException e) {
            return JsonObject.EMPTY_JSON_OBJECT;
        }
    }
}
