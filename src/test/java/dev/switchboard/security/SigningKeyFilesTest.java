package dev.switchboard.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SigningKeyFilesTest {

    @TempDir
    Path dir;

    @Test
    void pemRoundTripKeepsBothHalves() {
        KeyPair decoded = SigningKeyPem.decode(SigningKeyPem.encode(TestKeys.PAIR));
        assertEquals(TestKeys.PAIR.getPublic(), decoded.getPublic());
        assertArrayEquals(TestKeys.PAIR.getPrivate().getEncoded(), decoded.getPrivate().getEncoded());
        assertEquals("-----BEGIN PRIVATE KEY-----",
                new String(SigningKeyPem.encode(TestKeys.PAIR), StandardCharsets.US_ASCII).lines().findFirst().orElseThrow());
    }

    @Test
    void garbageIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> SigningKeyPem.decode("nope".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void fileIsCreatedOnceOwnerOnlyAndReused() throws Exception {
        Path file = dir.resolve("nested").resolve("jwt-signing-key.pem");
        AtomicInteger created = new AtomicInteger();
        byte[] first = OwnerOnlyFiles.readOrCreate(file, () -> {
            created.incrementAndGet();
            return SigningKeyPem.encode(TestKeys.PAIR);
        });
        byte[] second = OwnerOnlyFiles.readOrCreate(file, () -> {
            created.incrementAndGet();
            return "other".getBytes(StandardCharsets.US_ASCII);
        });
        assertEquals(1, created.get());
        assertArrayEquals(first, second);
        assertEquals(TestKeys.PAIR.getPublic(), SigningKeyPem.decode(second).getPublic());
        if (Files.getFileStore(file).supportsFileAttributeView("posix")) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        }
        try (var listing = Files.list(file.getParent())) {
            assertEquals(1, listing.count(), "no temporary files left behind");
        }
    }
}
