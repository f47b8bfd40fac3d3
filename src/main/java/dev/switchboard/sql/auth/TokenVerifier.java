package dev.switchboard.sql.auth;

import dev.switchboard.sql.Params;
import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.function.Function;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * Checks a bearer token the way the REST API's MicroProfile JWT does (same issuer, audience and keys): RS256 only,
 * signature by a key of the issuer's JWKS, {@code iss}, {@code aud}, {@code exp}. The dialect authenticates inside
 * the conversation, where no container security runs, hence a verifier of its own.
 */
public final class TokenVerifier {

    private final Function<String, Optional<RSAPublicKey>> keys;
    private final String issuer;
    private final String audience;
    private final Clock clock;

    /** @param keys a key by its {@code kid} (the issuer's JWKS) */
    public TokenVerifier(Function<String, Optional<RSAPublicKey>> keys, String issuer, String audience, Clock clock) {
        this.keys = keys;
        this.issuer = issuer;
        this.audience = audience;
        this.clock = clock;
    }

    /** The token's claims; -31000 with a {@code reason} (and {@code expires_at} for an expired one) otherwise. */
    public JsonObject verify(String token) {
        String[] parts = token == null ? new String[0] : token.split("\\.", -1);
        if (parts.length != 3) {
            throw refused("令牌格式无效");
        }
        JsonObject header = json(parts[0]);
        JsonObject claims = json(parts[1]);
        if (!"RS256".equals(header.getString("alg", ""))) {
            throw refused("不支持的签名算法");
        }
        RSAPublicKey key = keys.apply(header.getString("kid", "")).orElseThrow(() -> refused("未知的签名密钥"));
        if (!signatureValid(parts, key)) {
            throw refused("令牌签名无效");
        }
        if (!issuer.equals(claims.getString("iss", ""))) {
            throw refused("令牌签发者不受信任");
        }
        if (!audienceMatches(claims.get("aud"))) {
            throw refused("令牌受众不匹配");
        }
        if (!(claims.get("exp") instanceof JsonNumber exp)) {
            throw refused("令牌缺少过期时间");
        }
        Instant expiresAt = Instant.ofEpochSecond(exp.longValue());
        if (!clock.instant().isBefore(expiresAt)) {
            throw new QueryException(QueryErrorCode.AUTHENTICATION, "认证失败",
                    Params.data("reason", "访问令牌已过期", "expires_at", expiresAt.toString()));
        }
        if (claims.getString("sub", "").isBlank()) {
            throw refused("令牌缺少 sub");
        }
        return claims;
    }

    private boolean audienceMatches(JsonValue aud) {
        if (aud instanceof JsonString s) {
            return audience.equals(s.getString());
        }
        return aud instanceof JsonArray list && list.stream().anyMatch(v -> v instanceof JsonString s && audience.equals(s.getString()));
    }

    private static boolean signatureValid(String[] parts, RSAPublicKey key) {
        try {
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initVerify(key);
            rsa.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
            return rsa.verify(Base64.getUrlDecoder().decode(parts[2]));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }

    private static JsonObject json(String part) {
        try (JsonReader reader = JSON.createReader(new StringReader(new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8)))) {
            return reader.readObject();
        } catch (RuntimeException e) {
            throw refused("令牌格式无效");
        }
    }

    static QueryException refused(String reason) {
        return new QueryException(QueryErrorCode.AUTHENTICATION, "认证失败", Params.data("reason", reason));
    }
}
