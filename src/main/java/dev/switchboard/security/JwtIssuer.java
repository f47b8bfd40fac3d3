package dev.switchboard.security;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The built-in token issuer: short-lived access tokens for logins, long-lived ones for API keys. */
@ApplicationScoped
public class JwtIssuer {

    static final String API_KEY_USE = "api_key";

    @Inject
    SigningKeys keys;

    @Inject
    @ConfigProperty(name = "jwt.issuer", defaultValue = "switchboard")
    String issuer;

    @Inject
    @ConfigProperty(name = "switchboard.token.ttl", defaultValue = "PT8H")
    String tokenTtl;

    @Inject
    @ConfigProperty(name = "switchboard.api-key.ttl", defaultValue = "P365D")
    String apiKeyTtl;

    private TokenMinter minter;
    private Duration accessTtl;
    private Duration keyTtl;

    @PostConstruct
    void init() {
        minter = new TokenMinter(keys.signer(), issuer, Clock.systemUTC());
        accessTtl = Duration.parse(tokenTtl);
        keyTtl = Duration.parse(apiKeyTtl);
    }

    public IssuedToken accessToken(TokenSubject who) {
        return minter.mint(who, accessTtl, null);
    }

    IssuedToken apiKey(TokenSubject who) {
        return minter.mint(who, keyTtl, API_KEY_USE);
    }
}
