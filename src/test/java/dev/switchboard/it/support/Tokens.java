package dev.switchboard.it.support;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.io.StringReader;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.interfaces.RSAPrivateCrtKey;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;

/**
 * Mints JWTs the way an attacker or a foreign issuer would: with the IT server's own signing key (read from its
 * database and decrypted with the secret key in its data dir, {@code it.data.dir}) but wrong claims, or with a key of its own. Uses the JDK only, no server classes.
 */
public final class Tokens {

    private static volatile PrivateKey serverKey;
    private static volatile String serverKid;
    private static volatile PrivateKey foreignKey;

    private Tokens() {
    }

    /** Claims like the built-in issuer's for a user of tenant "default", valid for an hour from now. */
    public static JsonObjectBuilder claims(String subject, String... groups) {
        long now = Instant.now().getEpochSecond();
        var groupArray = Json.createArrayBuilder();
        for (String group : groups) {
            groupArray.add(group);
        }
        return Json.createObjectBuilder()
                .add("iss", "switchboard")
                .add("aud", "switchboard")
                .add("sub", subject)
                .add("upn", subject)
                .add("groups", groupArray)
                .add("tenant", "default")
                .add("iat", now)
                .add("exp", now + 3600)
                .add("jti", UUID.randomUUID().toString());
    }

    /** Signed with the server's own key and key id: only the claims can make it fail. */
    public static String signedByServer(JsonObject claims) {
        loadServerKey();
        return sign(claims, serverKey, serverKid);
    }

    /** Signed with a key the server has never seen, under the server's key id (a forgery attempt). */
    public static synchronized String signedByForeignKey(JsonObject claims) {
        loadServerKey();
        if (foreignKey == null) {
            try {
                KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
                generator.initialize(2048);
                foreignKey = generator.generateKeyPair().getPrivate();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
        return sign(claims, foreignKey, serverKid);
    }

    /** Signed by a key the server has never seen, under a key id it does not know either. */
    public static String signedByForeignKeyAndKid(JsonObject claims) {
        signedByForeignKey(claims);
        return sign(claims, foreignKey, "unknown-" + UUID.randomUUID());
    }

    /**
     * The classic algorithm confusion: HS256 with the server's public key (as published in the JWKS) as the
     * HMAC secret. A verifier that trusts the header's alg would accept it.
     */
    public static String hs256WithPublicKey(JsonObject claims, byte[] secret) {
        loadServerKey();
        String header = Json.createObjectBuilder().add("alg", "HS256").add("typ", "JWT").add("kid", serverKid).build().toString();
        String input = b64(header.getBytes(StandardCharsets.UTF_8)) + "." + b64(claims.toString().getBytes(StandardCharsets.UTF_8));
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(secret, "HmacSHA256"));
            return input + "." + b64(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** The claims part of a token, decoded. */
    public static JsonObject payload(String token) {
        String json = new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8);
        try (var reader = Json.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }

    /** Signed with the server's own key under a header with a {@code crit} parameter no verifier here understands. */
    public static String signedByServerWithCriticalHeader(JsonObject claims) {
        loadServerKey();
        return sign(claims, serverKey, Json.createObjectBuilder().add("alg", "RS256").add("typ", "JWT").add("kid", serverKid)
                .add("crit", Json.createArrayBuilder().add("x-must-understand")).add("x-must-understand", true).build());
    }

    private static String sign(JsonObject claims, PrivateKey key, String kid) {
        return sign(claims, key, Json.createObjectBuilder().add("alg", "RS256").add("typ", "JWT").add("kid", kid).build());
    }

    private static String sign(JsonObject claims, PrivateKey key, JsonObject headerObject) {
        String header = headerObject.toString();
        String input = b64(header.getBytes(StandardCharsets.UTF_8)) + "." + b64(claims.toString().getBytes(StandardCharsets.UTF_8));
        try {
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initSign(key);
            rsa.update(input.getBytes(StandardCharsets.US_ASCII));
            return input + "." + b64(rsa.sign());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static synchronized void loadServerKey() {
        if (serverKey != null) {
            return;
        }
        Api.awaitReady();
        String dataDir = System.getProperty("it.data.dir");
        if (dataDir == null) {
            throw new AssertionError("system property it.data.dir (the IT server's data dir) is not set");
        }
        try {
            String pem = storedSigningKey(dataDir);
            String body = pem.replace("-----BEGIN PRIVATE KEY-----", "").replace("-----END PRIVATE KEY-----", "");
            byte[] der = Base64.getMimeDecoder().decode(body);
            KeyFactory rsa = KeyFactory.getInstance("RSA");
            RSAPrivateCrtKey key = (RSAPrivateCrtKey) rsa.generatePrivate(new java.security.spec.PKCS8EncodedKeySpec(der));
            serverKey = key;
            serverKid = thumbprint(key.getModulus(), key.getPublicExponent());
        } catch (Exception e) {
            throw new AssertionError("Could not read the IT server's signing key: " + e, e);
        }
    }

    /**
     * The signing key as the server stores it: in its database, AES-256-GCM under the secret key it generated into its
     * data dir ({@code enc:v2:<key version>:<base64(iv | ciphertext+tag)>}, bound to its place as associated data).
     */
    private static String storedSigningKey(String dataDir) throws Exception {
        String stored = ServerDatabase.queryString("select private_key from signing_key where id = 1");
        if (stored == null || !stored.startsWith("enc:v2:1:")) {
            throw new AssertionError("no signing key under secret key v1 in the server database: " + stored);
        }
        byte[] secret = Base64.getDecoder().decode(Files.readString(Path.of(dataDir, "secret.key")).strip());
        byte[] packed = Base64.getDecoder().decode(stored.substring("enc:v2:1:".length()));
        javax.crypto.Cipher aes = javax.crypto.Cipher.getInstance("AES/GCM/NoPadding");
        aes.init(javax.crypto.Cipher.DECRYPT_MODE, new javax.crypto.spec.SecretKeySpec(secret, "AES"),
                new javax.crypto.spec.GCMParameterSpec(128, packed, 0, 12));
        aes.updateAAD("signing_key/1/private_key".getBytes(StandardCharsets.UTF_8));
        return new String(aes.doFinal(packed, 12, packed.length - 12), StandardCharsets.UTF_8);
    }

    /** RFC 7638 thumbprint of the public key, the kid the server publishes. */
    private static String thumbprint(BigInteger modulus, BigInteger exponent) throws Exception {
        String json = "{\"e\":\"" + b64(unsigned(exponent)) + "\",\"kty\":\"RSA\",\"n\":\"" + b64(unsigned(modulus)) + "\"}";
        return b64(MessageDigest.getInstance("SHA-256").digest(json.getBytes(StandardCharsets.UTF_8)));
    }

    private static byte[] unsigned(BigInteger value) {
        byte[] bytes = value.toByteArray();
        return bytes[0] == 0 && bytes.length > 1 ? java.util.Arrays.copyOfRange(bytes, 1, bytes.length) : bytes;
    }

    public static String b64(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
