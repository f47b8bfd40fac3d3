package dev.switchboard.audit;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.Base64;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AuditSecretsTest {

    static final byte[] V1 = "first-secret-0123456789abcdef012".getBytes();
    static final byte[] V2 = "second-secret-0123456789abcdef01".getBytes();
    static final JsonObject INPUT = Json.createObjectBuilder().add("b", 1).add("a", "x").build();

    @Test
    void hashIsHmacOfTheCanonicalInputWithTheNewestSecret() {
        AuditSecrets secrets = new AuditSecrets(Map.of(1, V1, 2, V2), Set.of());
        AuditSecrets.InputHash hash = secrets.hash(INPUT);
        assertEquals(2, hash.version());
        JsonObject reordered = Json.createObjectBuilder().add("a", "x").add("b", 1.0).build();
        assertEquals(hash, secrets.hash(reordered), "key order and number spelling do not change the hash");
        assertEquals(64, hash.hex().length());
    }

    @Test
    void duringARotationBothVersionsAreLookedUpUntilTheOldOneIsRetired() {
        AuditSecrets before = new AuditSecrets(Map.of(1, V1), Set.of());
        String oldHash = before.hash(INPUT).hex();
        AuditSecrets rotating = new AuditSecrets(Map.of(1, V1, 2, V2), Set.of());
        String newHash = rotating.hash(INPUT).hex();
        assertNotEquals(oldHash, newHash);
        assertTrue(rotating.lookupHashes(INPUT).containsValue(oldHash), "events hashed under v1 are still found");
        assertTrue(rotating.lookupHashes(INPUT).containsValue(newHash));
        AuditSecrets retired = new AuditSecrets(Map.of(1, V1, 2, V2), Set.of(1));
        assertFalse(retired.lookupHashes(INPUT).containsValue(oldHash), "a retired version is no longer used");
        assertEquals(2, retired.currentVersion());
    }

    @Test
    void configParsesAndRefusesNonsense() {
        String config = "v1=" + Base64.getEncoder().encodeToString(V1) + ", v2=" + Base64.getEncoder().encodeToString(V2);
        Map<Integer, byte[]> parsed = AuditSecrets.parse(config);
        assertEquals(Set.of(1, 2), parsed.keySet());
        assertThrows(IllegalArgumentException.class, () -> AuditSecrets.parse("secret"));
        assertThrows(IllegalArgumentException.class, () -> new AuditSecrets(Map.of(1, V1), Set.of(1)));
    }

    @Test
    void canonicalJsonSortsKeysAtEveryLevel() {
        JsonObject nested = Json.createObjectBuilder().add("z", Json.createArrayBuilder().add(Json.createObjectBuilder()
                .add("y", true).add("x", Json.createValue(10)))).add("a", "é\"").build();
        assertEquals("{\"a\":\"é\\\"\",\"z\":[{\"x\":10,\"y\":true}]}", CanonicalJson.of(nested));
    }
}
