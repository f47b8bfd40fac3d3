package dev.switchboard.backend.tools;

import dev.switchboard.persistence.DatabaseKinds;
import dev.switchboard.persistence.TestDatabase;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The persisted alias map on each database: issue, resolve, clash, rename, restart. */
class ToolAliasRegistryTest {

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void namesResolveBackAfterRestartAndRename(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            long s1 = insertServer(db, "my files");
            long s2 = insertServer(db, "my_files");
            List<Long> visible = List.of(s1, s2);

            Map<String, String> first = db.inTransaction(em -> registry(em).displayNames(s1, "my files", List.of("read", "write"), visible));
            assertEquals("mcp__my_files__read", first.get("read"));
            assertEquals("mcp__my_files__write", first.get("write"));

            // "my_files" sanitises to the same name: the second server gets a hashed one instead
            String clash = db.inTransaction(em -> registry(em).displayNames(s2, "my_files", List.of("read"), visible)).get("read");
            assertNotEquals("mcp__my_files__read", clash);
            assertTrue(clash.matches("mcp__my_files__read_[0-9a-f]{8}"), clash);

            db.reopen();
            assertEquals(Optional.of(new ToolAliasRegistry.ToolRef(s1, "read")),
                    db.inTransaction(em -> registry(em).resolve("mcp__my_files__read", visible)));
            assertEquals(Optional.of(new ToolAliasRegistry.ToolRef(s2, "read")),
                    db.inTransaction(em -> registry(em).resolve(clash, visible)));
            assertEquals(Optional.empty(), db.inTransaction(em -> registry(em).resolve("mcp__my_files__read", List.of(s2))),
                    "a caller who cannot see the server cannot resolve its names");

            // after a rename the new name is issued and the old one still resolves
            String renamed = db.inTransaction(em -> registry(em).displayNames(s1, "documents", List.of("read"), visible)).get("read");
            assertEquals("mcp__documents__read", renamed);
            assertEquals(Optional.of(new ToolAliasRegistry.ToolRef(s1, "read")),
                    db.inTransaction(em -> registry(em).resolve("mcp__my_files__read", visible)));
            assertEquals(Optional.of(new ToolAliasRegistry.ToolRef(s1, "read")),
                    db.inTransaction(em -> registry(em).resolve("mcp__documents__read", visible)));

            // issuing again is idempotent: no duplicate rows
            db.run(em -> registry(em).displayNames(s1, "documents", List.of("read"), visible));
            assertEquals(4L, (long) db.inTransaction(em -> em.createQuery("select count(a) from ToolAlias a", Long.class).getSingleResult()));
        }
    }

    private static ToolAliasRegistry registry(EntityManager em) {
        ToolAliasRegistry registry = new ToolAliasRegistry();
        registry.em = em;
        registry.self = registry;
        return registry;
    }

    private static long insertServer(TestDatabase db, String name) throws Exception {
        try (Connection c = db.jdbc(); var ps = c.prepareStatement("insert into mcp_servers (user_id, tenant_id, scope, name, type, "
                + "is_active, timeout, created_at, updated_at, base_url) values ('alice','default','USER',?,'sse',true,60,1,1,'http://x/sse')",
                new String[]{"id"})) {
            ps.setString(1, name);
            ps.executeUpdate();
            try (var keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }
}
