package dev.switchboard.sql.auth;

import com.nimbusds.jwt.JWTClaimsSet;
import dev.switchboard.security.TokenRefused;
import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dialect's face of the server's token verification path (the checks themselves: security.JwtVerifierTest).
 */
class TokenVerifierTest {

    static Map<String, Object> refusal(TokenRefused refused) {
        QueryException e = assertThrows(QueryException.class, () -> new TokenVerifier(t -> {
            throw refused;
        }).verify("x"));
        assertEquals(QueryErrorCode.AUTHENTICATION, e.code());
        assertEquals("认证失败", e.getMessage());
        return e.data();
    }

    /** Each refusal of the verification path: -31000, the reason in words, expires_at for an expired token. */
    @Test
    void refusalsBecomeTheDialectsAuthenticationError() {
        assertEquals(Map.of("reason", "访问令牌已过期", "expires_at", "2026-11-25T03:00:00Z"), refusal(new TokenRefused(
                TokenRefused.Reason.EXPIRED, "Expired JWT", Instant.parse("2026-11-25T03:00:00Z"))));
        assertEquals(Map.of("reason", "访问令牌尚未生效"), refusal(new TokenRefused(TokenRefused.Reason.NOT_YET_VALID, "nbf")));
        assertEquals(Map.of("reason", "令牌含无法处理的关键头部参数（crit）"),
                refusal(new TokenRefused(TokenRefused.Reason.CRITICAL_HEADER, "crit")));
        assertEquals(Map.of("reason", "API 密钥已被吊销"), refusal(new TokenRefused(TokenRefused.Reason.API_KEY_REVOKED, "revoked")));
        assertEquals(Map.of("reason", "令牌所属用户已被删除或停用"),
                refusal(new TokenRefused(TokenRefused.Reason.USER_NOT_ACTIVE, "deleted")));
        for (TokenRefused.Reason reason : TokenRefused.Reason.values()) {
            assertFalse(((String) refusal(new TokenRefused(reason, "refused")).get("reason")).isBlank(), reason + " has words");
        }
    }

    @Test
    void acceptedClaimsAreTheJsonThePermissionMappingReads() {
        JsonObject claims = new TokenVerifier(t -> new JWTClaimsSet.Builder().subject("alice").claim("groups", List.of("user"))
                .expirationTime(Date.from(Instant.ofEpochSecond(2_000_000_000L))).build()).verify("x");
        assertEquals("alice", claims.getString("sub"));
        assertEquals(2_000_000_000L, claims.getJsonNumber("exp").longValue(), "exp in seconds");
        assertEquals("user", claims.getJsonArray("groups").getString(0));
    }
}
