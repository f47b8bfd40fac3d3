package dev.switchboard.security;

import java.security.KeyPair;

/** One RSA key for the whole test run: generating 2048-bit keys is slow. */
final class TestKeys {

    static final KeyPair PAIR = SigningKeyPem.decode(SigningKeyPem.generate());

    private TestKeys() {
    }
}
