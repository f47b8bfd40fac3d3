package dev.switchboard.security;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.BadJWSException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jose.util.ResourceRetriever;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import com.nimbusds.jwt.proc.ExpiredJWTException;
import java.net.URL;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.Set;

/**
 * Verifies a compact JWT with Nimbus JOSE+JWT the way MicroProfile JWT does for the REST API (same issuer, audience
 * and JWKS): RS256 only ({@code alg: none} and HMAC signed with the public key are refused), no {@code crit} header
 * parameter (none is understood here), signature by a key of the issuer's JWKS, {@code iss}, {@code aud}, {@code sub},
 * {@code exp} and {@code nbf} with a clock skew. The library decides; this class only names the reason of a refusal.
 */
public final class JwtVerifier {

    /** What MicroProfile JWT issuers put in {@code typ}: none, JWT, or RFC 9068's access token type. */
    private static final DefaultJOSEObjectTypeVerifier<SecurityContext> TYPES = new DefaultJOSEObjectTypeVerifier<>(
            JOSEObjectType.JWT, new JOSEObjectType("at+jwt"), null);

    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
    private final String issuer;
    private final String audience;
    private final Duration clockSkew;
    private final Clock clock;

    public JwtVerifier(JWKSource<SecurityContext> keys, String issuer, String audience, Duration clockSkew, Clock clock) {
        this.issuer = issuer;
        this.audience = audience;
        this.clockSkew = clockSkew;
        this.clock = clock;
        processor.setJWSTypeVerifier(TYPES);
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.RS256, keys));
        DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(Set.of(audience),
                new JWTClaimsSet.Builder().issuer(issuer).build(), Set.of("sub", "exp"), null) {
            @Override
            protected Date currentTime() {
                return Date.from(clock.instant());
            }
        };
        claims.setMaxClockSkew((int) clockSkew.toSeconds());
        processor.setJWTClaimsSetVerifier(claims);
    }

    /**
     * The issuer's JWKS at {@code uri}, cached (5 minutes, refreshed ahead) and fetched again when a token names an
     * unknown key, at most once every 30 seconds so forged key ids cannot make us hammer the issuer; callers arriving
     * during a fetch wait for it.
     */
    public static JWKSource<SecurityContext> remoteKeys(URL uri) {
        // the library's 500 ms timeouts are too short for an issuer on a busy machine (the built-in one is this server)
        return remoteKeys(uri, new DefaultResourceRetriever(5_000, 10_000, JWKSourceBuilder.DEFAULT_HTTP_SIZE_LIMIT));
    }

    /** The same, with the JWKS read by {@code retriever} (the server's is {@link JwksFetch}, under Fault Tolerance). */
    public static JWKSource<SecurityContext> remoteKeys(URL uri, ResourceRetriever retriever) {
        return JWKSourceBuilder.<SecurityContext>create(uri, retriever).cache(true).rateLimited(true).build();
    }

    /** The token's verified claims. */
    public JWTClaimsSet verify(String token) {
        SignedJWT signed = signed(token);
        JWSHeader header = signed.getHeader();
        if (!JWSAlgorithm.RS256.equals(header.getAlgorithm())) {
            throw new TokenRefused(TokenRefused.Reason.ALGORITHM, "algorithm " + header.getAlgorithm() + " is not accepted");
        }
        if (header.getCriticalParams() != null && !header.getCriticalParams().isEmpty()) {
            // the library refuses these too (as a bad signature); saying so is clearer to whoever built the token
            throw new TokenRefused(TokenRefused.Reason.CRITICAL_HEADER, "critical header parameters "
                    + header.getCriticalParams() + " are not understood");
        }
        JWTClaimsSet verified;
        try {
            verified = processor.process(signed, null);
        } catch (ExpiredJWTException e) {
            Date exp = claims(signed).getExpirationTime();
            throw new TokenRefused(TokenRefused.Reason.EXPIRED, e.getMessage(), exp == null ? null : exp.toInstant());
        } catch (BadJWTException e) {
            throw claimRefusal(claims(signed), e);
        } catch (BadJWSException e) {
            throw new TokenRefused(TokenRefused.Reason.SIGNATURE, e.getMessage());
        } catch (BadJOSEException e) {
            // the algorithm is RS256 by now: no key of the issuer has this token's kid
            throw new TokenRefused(TokenRefused.Reason.UNKNOWN_KEY, e.getMessage());
        } catch (RateLimitReachedException e) {
            // the JWKS was fetched moments ago and lacked this kid: another fetch now would only serve a forger
            throw new TokenRefused(TokenRefused.Reason.UNKNOWN_KEY, "no key of the issuer has this kid");
        } catch (JOSEException e) {
            throw new TokenRefused(TokenRefused.Reason.KEYS_UNAVAILABLE, "the issuer's keys cannot be read: " + e.getMessage());
        }
        if (verified.getSubject().isBlank()) {
            throw new TokenRefused(TokenRefused.Reason.MISSING_SUBJECT, "the subject is blank");
        }
        return verified;
    }

    private static SignedJWT signed(String token) {
        JWT parsed;
        try {
            parsed = JWTParser.parse(token == null ? "" : token);
        } catch (ParseException e) {
            throw new TokenRefused(TokenRefused.Reason.MALFORMED, "not a compact JWT: " + e.getMessage());
        }
        if (!(parsed instanceof SignedJWT signed)) {
            throw new TokenRefused(TokenRefused.Reason.ALGORITHM, "only signed tokens are accepted");
        }
        return signed;
    }

    private static JWTClaimsSet claims(SignedJWT signed) {
        try {
            return signed.getJWTClaimsSet();
        } catch (ParseException e) {
            throw new TokenRefused(TokenRefused.Reason.MALFORMED, "the payload is not a JSON object");
        }
    }

    /** Which of the library's claim checks failed, told from the (signature-verified) claims themselves. */
    private TokenRefused claimRefusal(JWTClaimsSet claims, BadJWTException e) {
        List<String> audiences = claims.getAudience();
        TokenRefused.Reason reason;
        if (!issuer.equals(claims.getIssuer())) {
            reason = TokenRefused.Reason.ISSUER;
        } else if (audiences == null || !audiences.contains(audience)) {
            reason = TokenRefused.Reason.AUDIENCE;
        } else if (claims.getExpirationTime() == null) {
            reason = TokenRefused.Reason.MISSING_EXPIRY;
        } else if (claims.getSubject() == null || claims.getSubject().isBlank()) {
            reason = TokenRefused.Reason.MISSING_SUBJECT;
        } else if (claims.getNotBeforeTime() != null
                && claims.getNotBeforeTime().toInstant().isAfter(clock.instant().plus(clockSkew))) {
            reason = TokenRefused.Reason.NOT_YET_VALID;
        } else {
            reason = TokenRefused.Reason.MALFORMED;
        }
        return new TokenRefused(reason, e.getMessage());
    }
}
