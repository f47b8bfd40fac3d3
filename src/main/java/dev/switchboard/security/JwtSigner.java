package dev.switchboard.security;

import jakarta.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** Signs a claim set as a compact RS256 JWS. */
final class JwtSigner {

    private final PrivateKey key;
    private final String encodedHeader;

    JwtSigner(PrivateKey key, String kid) {
        this.key = key;
        JsonObject header = JSON.createObjectBuilder().add("alg", "RS256").add("typ", "JWT").add("kid", kid).build();
        this.encodedHeader = Base64Url.encode(header.toString());
    }

    String sign(JsonObject claims) {
        String signingInput = encodedHeader + "." + Base64Url.encode(claims.toString());
        try {
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initSign(key);
            rsa.update(signingInput.getBytes(StandardCharsets.US_ASCII));
            return signingInput + "." + Base64Url.encode(rsa.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot sign a token", e);
        }
    }
}
