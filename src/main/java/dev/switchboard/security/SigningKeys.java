package dev.switchboard.security;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.interfaces.RSAPublicKey;
import java.util.logging.Logger;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The built-in issuer's RSA key, stored once in the database (encrypted with the secret key, {@link SigningKeyRow}) so
 * that every instance on it signs and verifies with the same key. The first start stores the key of before, {@code
 * <data-dir>/jwt-signing-key.pem}, when there is one (tokens and API keys issued before keep working), or a new one;
 * the file is not read again. Re-encrypted under the newest secret key when it is not under it yet.
 */
@ApplicationScoped
public class SigningKeys {

    private static final Logger LOG = Logger.getLogger(SigningKeys.class.getName());
    static final String FILE_NAME = "jwt-signing-key.pem";

    @Inject
    DataDirectory dataDirectory;

    @Inject
    SigningKeyRows rows;

    @Inject
    SecretCipher cipher;

    private JwtSigner signer;
    private JsonObject jwks;
    private String kid;

    @PostConstruct
    void load() {
        KeyPair pair = SigningKeyPem.decode(storedPem().getBytes(StandardCharsets.US_ASCII));
        RSAPublicKey publicKey = (RSAPublicKey) pair.getPublic();
        kid = RsaJwk.thumbprint(publicKey);
        signer = new JwtSigner(pair.getPrivate(), kid);
        jwks = RsaJwk.jwks(publicKey);
        LOG.info(() -> "JWT signing key " + kid + " loaded from the database");
    }

    private String storedPem() {
        SigningKeyRow row = rows.find().orElseGet(this::storeFirstKey);
        String pem;
        try {
            pem = cipher.decrypt(row.privateKey(), SigningKeyRow.PLACE);
        } catch (IllegalStateException e) {
            throw new IllegalStateException("The JWT signing key in the database (table signing_key) cannot be decrypted"
                    + " with the configured secret keys: configure the key it was stored with (switchboard.secret-keys),"
                    + " or delete the row to start with a new signing key (every token and API key issued so far is then"
                    + " refused). " + e.getMessage(), e);
        }
        if (!cipher.isCurrent(row.privateKey())) {
            rows.reencrypt(row.privateKey(), cipher.encrypt(pem, SigningKeyRow.PLACE));
        }
        return pem;
    }

    /** Stores the key of before or a new one; when another instance stored its key meanwhile, that one wins. */
    private SigningKeyRow storeFirstKey() {
        Path file = dataDirectory.resolve(FILE_NAME);
        boolean existing = Files.exists(file);
        byte[] pem = existing ? readFile(file) : SigningKeyPem.generate();
        String keyId = RsaJwk.thumbprint((RSAPublicKey) SigningKeyPem.decode(pem).getPublic());
        try {
            rows.insert(new SigningKeyRow(keyId, cipher.encrypt(new String(pem, StandardCharsets.US_ASCII),
                    SigningKeyRow.PLACE), System.currentTimeMillis()));
            LOG.info(() -> existing ? "JWT signing key " + keyId + " moved from " + file + " into the database"
                    : "JWT signing key " + keyId + " generated into the database");
        } catch (RuntimeException e) {
            LOG.info(() -> "Another instance stored the JWT signing key first: " + e.getMessage());
        }
        return rows.find().orElseThrow(() -> new IllegalStateException("The JWT signing key could not be stored"));
    }

    private static byte[] readFile(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
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
