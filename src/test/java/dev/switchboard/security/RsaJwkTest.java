package dev.switchboard.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.JsonObject;
import java.math.BigInteger;
import java.security.KeyFactory;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.RSAPublicKeySpec;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RsaJwkTest {

    private static final String RFC_7638_N = "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_"
            + "BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAt"
            + "aSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_"
            + "xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw";

    @Test
    void thumbprintMatchesTheRfc7638Example() throws Exception {
        RSAPublicKey key = publicKey(RFC_7638_N, "AQAB");
        assertEquals("NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs", RsaJwk.thumbprint(key));
    }

    @Test
    void jwkCarriesModulusAndExponentWithoutLeadingZeros() throws Exception {
        RSAPublicKey key = publicKey(RFC_7638_N, "AQAB");
        JsonObject jwk = RsaJwk.jwk(key);
        assertEquals(RFC_7638_N, jwk.getString("n"));
        assertEquals("AQAB", jwk.getString("e"));
    }

    @Test
    void jwksHasTheShapeMpJwtReads() {
        RSAPublicKey key = (RSAPublicKey) TestKeys.PAIR.getPublic();
        JsonObject jwks = RsaJwk.jwks(key);
        assertEquals(1, jwks.getJsonArray("keys").size());
        JsonObject jwk = jwks.getJsonArray("keys").getJsonObject(0);
        assertEquals(Set.of("kty", "use", "alg", "kid", "n", "e"), jwk.keySet());
        assertEquals("RSA", jwk.getString("kty"));
        assertEquals("sig", jwk.getString("use"));
        assertEquals("RS256", jwk.getString("alg"));
        assertEquals(RsaJwk.thumbprint(key), jwk.getString("kid"));
        assertEquals(key.getModulus(), new BigInteger(1, Base64Url.decode(jwk.getString("n"))));
        assertEquals(key.getPublicExponent(), new BigInteger(1, Base64Url.decode(jwk.getString("e"))));
        assertEquals(256, Base64Url.decode(jwk.getString("n")).length, "2048-bit modulus, no sign byte");
    }

    static RSAPublicKey publicKey(String n, String e) throws Exception {
        return (RSAPublicKey) KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(
                new BigInteger(1, Base64Url.decode(n)), new BigInteger(1, Base64Url.decode(e))));
    }
}
