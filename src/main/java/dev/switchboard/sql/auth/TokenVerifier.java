package dev.switchboard.sql.auth;

import com.nimbusds.jwt.JWTClaimsSet;
import dev.switchboard.security.TokenRefused;
import dev.switchboard.sql.Params;
import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;

import java.io.StringReader;
import java.util.function.Function;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The dialect's {@code auth.authenticate}: the token goes through the server's one verification path for tokens
 * outside MicroProfile JWT ({@code security.BearerTokens}), and a refusal becomes seed 000's -31000 with a
 * {@code reason} (and {@code expires_at} for an expired token).
 */
public final class TokenVerifier {

    private final Function<String, JWTClaimsSet> verification;

    /** @param verification verified claims, or {@link TokenRefused} */
    public TokenVerifier(Function<String, JWTClaimsSet> verification) {
        this.verification = verification;
    }

    /** The token's claims as JSON; -31000 with a {@code reason} otherwise. */
    public JsonObject verify(String token) {
        JWTClaimsSet claims;
        try {
            claims = verification.apply(token);
        } catch (TokenRefused e) {
            Object[] data = e.expiresAt() == null ? new Object[] {"reason", reason(e.reason())}
                    : new Object[] {"reason", reason(e.reason()), "expires_at", e.expiresAt().toString()};
            throw new QueryException(QueryErrorCode.AUTHENTICATION, "认证失败", Params.data(data));
        }
        try (JsonReader reader = JSON.createReader(new StringReader(claims.toString()))) {
            return reader.readObject();
        }
    }

    static String reason(TokenRefused.Reason reason) {
        return switch (reason) {
            case MALFORMED -> "令牌格式无效";
            case ALGORITHM -> "不支持的签名算法";
            case CRITICAL_HEADER -> "令牌含无法处理的关键头部参数（crit）";
            case UNKNOWN_KEY -> "未知的签名密钥";
            case KEYS_UNAVAILABLE -> "签名密钥暂时无法获取";
            case SIGNATURE -> "令牌签名无效";
            case ISSUER -> "令牌签发者不受信任";
            case AUDIENCE -> "令牌受众不匹配";
            case MISSING_EXPIRY -> "令牌缺少过期时间";
            case MISSING_SUBJECT -> "令牌缺少 sub";
            case EXPIRED -> "访问令牌已过期";
            case NOT_YET_VALID -> "访问令牌尚未生效";
            case API_KEY_REVOKED -> "API 密钥已被吊销";
            case USER_NOT_ACTIVE -> "令牌所属用户已被删除或停用";
        };
    }
}
