package dev.switchboard.persistence;

import dev.switchboard.backend.registry.McpServer;
import dev.switchboard.backend.registry.SecretRotation;
import dev.switchboard.backend.registry.ServerSecrets;
import dev.switchboard.backend.registry.TransportKind;
import dev.switchboard.security.SecretCipher;
import dev.switchboard.security.SecretCipherTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Server secrets through each database: sealed to their row and field, re-encrypted under a new key in the
 * background (values of before included), readable afterwards without the old key, and refused when moved to
 * another row.
 */
class ServerSecretsPersistenceTest {

    static final byte[] K1 = SecretCipherTest.key(1);
    static final byte[] K2 = SecretCipherTest.key(2);

    static String column(TestDatabase db, String column, long id) throws Exception {
        try (var c = db.jdbc(); PreparedStatement st = c.prepareStatement("select " + column + " from mcp_servers where id = ?")) {
            st.setLong(1, id);
            try (ResultSet rs = st.executeQuery()) {
                assertTrue(rs.next());
                return rs.getString(1);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void sealedRotatedAndBoundToTheirRow(TestDatabase.Kind kind) throws Exception {
        ServerSecrets v1 = new ServerSecrets(new SecretCipher(Map.of(1, K1), Set.of()));
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            long[] ids = db.inTransaction(em -> {
                McpServer http = RegistryPersistenceTest.server("http", TransportKind.STREAMABLE_HTTP);
                http.stageHeaders(Map.of("Authorization", "Bearer sk-live-http"));
                em.persist(http);
                McpServer stdio = RegistryPersistenceTest.server("stdio", TransportKind.STDIO);
                stdio.setCommand("npx");
                try {
                    // as an installation of before left it: enc:v1 under the single key, and a plain value
                    stdio.setEnvJson("{\"TOKEN\":\"" + SecretCipherTest.legacy("sk-legacy", K1) + "\",\"PLAIN\":\"p-value\"}");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                em.persist(stdio);
                em.flush();
                v1.seal(http);
                em.flush();
                return new long[] {http.getId(), stdio.getId()};
            });
            db.reopen();
            String stored = column(db, "headers", ids[0]);
            assertTrue(stored.contains("enc:v2:1:") && !stored.contains("sk-live"), stored);
            assertEquals(Map.of("Authorization", "Bearer sk-live-http"),
                    db.inTransaction(em -> v1.headers(em.find(McpServer.class, ids[0]))));

            // a second key: the background pass moves everything under it, values of before included
            ServerSecrets v2 = new ServerSecrets(new SecretCipher(Map.of(1, K1, 2, K2), Set.of()));
            SecretRotation.Page page = db.inTransaction(em -> SecretRotation.next(em, v2, 0, 100));
            assertEquals(2, page.rewritten());
            assertEquals(0, page.lastId(), "one page held every row");
            assertEquals(0, db.inTransaction(em -> SecretRotation.next(em, v2, 0, 100)).rewritten(), "nothing left to do");
            db.reopen();
            assertTrue(column(db, "headers", ids[0]).contains("enc:v2:2:"));
            String env = column(db, "env", ids[1]);
            assertFalse(env.contains("enc:v1:") || env.contains("p-value") || env.contains("sk-legacy"), env);
            ServerSecrets onlyV2 = new ServerSecrets(new SecretCipher(Map.of(1, K1, 2, K2), Set.of(1)));
            assertEquals(Map.of("TOKEN", "sk-legacy", "PLAIN", "p-value"),
                    db.inTransaction(em -> onlyV2.env(em.find(McpServer.class, ids[1]))), "readable with v1 retired");
            assertEquals(Map.of("Authorization", "Bearer sk-live-http"),
                    db.inTransaction(em -> onlyV2.headers(em.find(McpServer.class, ids[0]))));

            // row 1's sealed header copied into row 2 (someone with write access to the table): refused there
            try (var c = db.jdbc(); PreparedStatement st = c.prepareStatement("update mcp_servers set headers = ? where id = ?")) {
                st.setString(1, column(db, "headers", ids[0]));
                st.setLong(2, ids[1]);
                assertEquals(1, st.executeUpdate());
            }
            db.reopen();
            IllegalStateException moved = assertThrows(IllegalStateException.class,
                    () -> db.inTransaction(em -> onlyV2.headers(em.find(McpServer.class, ids[1]))));
            assertTrue(moved.getMessage().contains("another place"), moved.getMessage());
            SecretRotation.Page withMoved = db.inTransaction(em -> SecretRotation.next(em, onlyV2, 0, 100));
            assertEquals(List.of(ids[1]), withMoved.unreadable(), "left alone and reported");
        }
    }
}
