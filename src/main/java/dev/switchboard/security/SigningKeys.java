package dev.switchboard.security;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.interfaces.RSAPublicKey;
import java.util.logging.Logger;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The built-in issuer's RSA key: generated on first start into {@code <data-dir>/jwt-signing-key.pem}
 * (owner-only), reused afterwards so tokens and API keys survive restarts.
 */
@ApplicationScoped
public class SigningKeys {

    private static final Logger LOG = Logger.getLogger(SigningKeys.class.getName());
    static final String FILE_NAME = "jwt-signing-key.pem";

    @Inject
    DataDirectory dataDirectory;

    private JwtSigner signer;
    private JsonObject jwks;
    private String kid;

    @PostConstruct
    void load() {
        Path file = dataDirectory.resolve(FILE_NAME);
        KeyPair pair = SigningKeyPem.decode(OwnerOnlyFiles.readOrCreate(file, SigningKeyPem::generate));
        RSAPublicKey publicKey = (RSAPublicKey) pair.getPublic();
        kid = RsaJwk.thumbprint(publicKey);
        signer = new JwtSigner(pair.getPrivate(), kid);
        jwks = RsaJwk.jwks(publicKey);
        LOG.info(() -> "JWT signing key " + kid + " loaded from " + file);
    }

    JwtSigner signer() {
        return signer;
    }

    JsonObject jwks() {
        return jwks;
    }

    /**
     * True when a token (already verified by mpJwt) names this key in its header, i.e. the built-in issuer
     * minted it for a local user; tokens of an external issuer name that issuer's keys.
     */
    boolean signedHere(String rawToken) {
        if (rawToken == null || rawToken.indexOf('.') < 0) {
            return false;
        }
        try {
            String header = new String(Base64Url.decode(rawToken.substring(0, rawToken.indexOf('.'))), StandardCharsets.UTF_8);
            try (JsonReader reader = JSON.createReader(new StringReader(header))) {
                return kid.equals(reader.readObject().getString("kid", null));
            }
        } catch (RuntimeException e) {
            return false;
        }
    }
}
