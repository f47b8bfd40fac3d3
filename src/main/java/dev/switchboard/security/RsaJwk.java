package dev.switchboard.security;

import jakarta.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPublicKey;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** The public half of the signing key as a JSON Web Key, with its RFC 7638 thumbprint as key id. */
final class RsaJwk {

    private RsaJwk() {
    }

    /** RFC 7638 thumbprint: SHA-256 over the required members in lexicographic order, no whitespace. */
    static String thumbprint(RSAPublicKey key) {
        String canonical = "{\"e\":\"" + Base64Url.encodeUnsigned(key.getPublicExponent())
                + "\",\"kty\":\"RSA\",\"n\":\"" + Base64Url.encodeUnsigned(key.getModulus()) + "\"}";
        try {
            return Base64Url.encode(MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static JsonObject jwk(RSAPublicKey key) {
        return JSON.createObjectBuilder()
                .add("kty", "RSA")
                .add("use", "sig")
                .add("alg", "RS256")
                .add("kid", thumbprint(key))
                .add("n", Base64Url.encodeUnsigned(key.getModulus()))
                .add("e", Base64Url.encodeUnsigned(key.getPublicExponent()))
                .build();
    }

    static JsonObject jwks(RSAPublicKey key) {
        return JSON.createObjectBuilder().add("keys", JSON.createArrayBuilder().add(jwk(key))).build();
    }
}
