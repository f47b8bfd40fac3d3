package dev.switchboard.security;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.TreeSet;
import java.util.UUID;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** Builds the claim set MicroProfile JWT expects (iss, aud, sub, upn, groups, iat, exp, jti) and signs it. */
final class TokenMinter {

    static final String AUDIENCE = "switchboard";
    static final String TOKEN_USE_CLAIM = "token_use";
    static final String TENANT_CLAIM = "tenant";

    private final JwtSigner signer;
    private final String issuer;
    private final Clock clock;

    TokenMinter(JwtSigner signer, String issuer, Clock clock) {
        this.signer = signer;
        this.issuer = issuer;
        this.clock = clock;
    }

    /** @param tokenUse value of the {@code token_use} claim, or null to leave it out (plain access token) */
    IssuedToken mint(TokenSubject who, Duration ttl, String tokenUse) {
        // whole seconds: NumericDate is in seconds and exp must not round past the intended lifetime
        Instant issuedAt = Instant.ofEpochSecond(clock.instant().getEpochSecond());
        Instant expiresAt = issuedAt.plus(ttl);
        String jti = UUID.randomUUID().toString();
        JsonArrayBuilder groups = JSON.createArrayBuilder();
        new TreeSet<>(who.groups()).forEach(groups::add);
        JsonObjectBuilder claims = JSON.createObjectBuilder()
                .add("iss", issuer)
                // a list, as Liberty stores it: given a string it converts it on every request through two exceptions
                .add("aud", JSON.createArrayBuilder().add(AUDIENCE))
                .add("sub", who.subject())
                .add("upn", who.subject())
                .add("groups", groups)
                .add(TENANT_CLAIM, who.tenant())
                .add("iat", issuedAt.getEpochSecond())
                .add("exp", expiresAt.getEpochSecond())
                .add("jti", jti);
        if (tokenUse != null) {
            claims.add(TOKEN_USE_CLAIM, tokenUse);
        }
        return new IssuedToken(signer.sign(claims.build()), jti, issuedAt, expiresAt);
    }
}
