package dev.switchboard.security;

import com.nimbusds.jose.util.Resource;
import com.nimbusds.jwt.JWTClaimsSet;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.time.Clock;
import java.time.Duration;

/**
 * The one verification path for bearer tokens that arrive outside MicroProfile JWT (today the query dialect's
 * {@code auth.authenticate}, over TCP and the {@code /mcp} WebSocket): the same issuer, audience and JWKS as the
 * {@code mpJwt} element of server.xml, checked by {@link JwtVerifier}; then what a signature cannot tell: an API key
 * that was revoked, and a token of the built-in issuer whose user was deleted or disabled (one indexed lookup, done
 * once per authentication, which is once per dialect connection).
 */
@ApplicationScoped
public class BearerTokens {

    @Inject
    @ConfigProperty(name = "jwt.issuer", defaultValue = "switchboard")
    String issuer;

    @Inject
    @ConfigProperty(name = "jwt.jwks-uri", defaultValue = "http://localhost:8080/api/auth/jwks")
    String jwksUri;

    @Inject
    @ConfigProperty(name = "jwt.audience", defaultValue = "switchboard")
    String audience;

    /** Shared with server.xml's mpJwt {@code clockSkew}: exp and nbf are given this much leeway on both paths. */
    @Inject
    @ConfigProperty(name = "jwt.clock-skew-seconds", defaultValue = "60")
    int clockSkewSeconds;

    @Inject
    ApiKeyCheck apiKeyCheck;

    @Inject
    SigningKeys signingKeys;

    @Inject
    LocalUsers localUsers;

    @Inject
    JwksFetch jwksFetch;

    private JwtVerifier verifier;

    @PostConstruct
    void init() {
        try {
            verifier = new JwtVerifier(JwtVerifier.remoteKeys(URI.create(jwksUri).toURL(), this::readJwks), issuer, audience,
                    Duration.ofSeconds(clockSkewSeconds), Clock.systemUTC());
        } catch (MalformedURLException | IllegalArgumentException e) {
            throw new IllegalStateException("jwt.jwks-uri is not a URL: " + jwksUri, e);
        }
    }

    /** The key source's reads go through {@link JwksFetch}, so they have its timeout and retries. */
    private Resource readJwks(URL url) throws IOException {
        try {
            return new Resource(jwksFetch.fetch(url.toURI()), "application/json");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading the JWKS at " + url, e);
        } catch (URISyntaxException | RuntimeException e) {
            throw new IOException("the JWKS at " + url + " could not be read: " + e.getMessage(), e);
        }
    }

    /** The verified claims; {@link TokenRefused} with the reason otherwise. */
    public JWTClaimsSet verify(String token) {
        JWTClaimsSet claims = verifier.verify(token);
        if (CurrentUser.TOKEN_USE_API_KEY.equals(claims.getClaim(TokenMinter.TOKEN_USE_CLAIM))
                && apiKeyCheck.revoked(token)) {
            throw new TokenRefused(TokenRefused.Reason.API_KEY_REVOKED, "the API key is revoked or unknown here");
        }
        if (signingKeys.signedHere(token) && !localUsers.isActive(claims.getSubject())) {
            throw new TokenRefused(TokenRefused.Reason.USER_NOT_ACTIVE, "the token's user was deleted or disabled");
        }
        return claims;
    }
}
