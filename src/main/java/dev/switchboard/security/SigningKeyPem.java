package dev.switchboard.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Base64;

/**
 * The RSA signing key as a PKCS#8 PEM file. Only the private key is stored: the public key is derived
 * from its CRT parameters, so the two can never disagree.
 */
final class SigningKeyPem {

    private static final String BEGIN = "-----BEGIN PRIVATE KEY-----";
    private static final String END = "-----END PRIVATE KEY-----";

    private SigningKeyPem() {
    }

    static byte[] generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return encode(generator.generateKeyPair());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot generate an RSA key", e);
        }
    }

    static byte[] encode(KeyPair pair) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(pair.getPrivate().getEncoded());
        return (BEGIN + "\n" + body + "\n" + END + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    static KeyPair decode(byte[] pem) {
        String text = new String(pem, StandardCharsets.US_ASCII);
        int start = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("Not a PKCS#8 PEM private key");
        }
        byte[] der = Base64.getMimeDecoder().decode(text.substring(start + BEGIN.length(), end));
        try {
            KeyFactory rsa = KeyFactory.getInstance("RSA");
            RSAPrivateCrtKey privateKey = (RSAPrivateCrtKey) rsa.generatePrivate(new PKCS8EncodedKeySpec(der));
            return new KeyPair(rsa.generatePublic(new RSAPublicKeySpec(privateKey.getModulus(), privateKey.getPublicExponent())),
                    privateKey);
        } catch (GeneralSecurityException | ClassCastException e) {
            throw new IllegalArgumentException("Not an RSA private key", e);
        }
    }
}
