package dev.switchboard.security;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/** Unpadded base64url as JOSE (RFC 7515) writes it. */
final class Base64Url {

    private Base64Url() {
    }

    static String encode(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    static String encode(String utf8) {
        return encode(utf8.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] decode(String text) {
        return Base64.getUrlDecoder().decode(text);
    }

    /** An unsigned big-endian integer without leading zero bytes (RFC 7518 "Base64urlUInt"). */
    static String encodeUnsigned(BigInteger value) {
        byte[] bytes = value.toByteArray();
        if (bytes.length > 1 && bytes[0] == 0) {
            bytes = Arrays.copyOfRange(bytes, 1, bytes.length);
        }
        return encode(bytes);
    }
}
