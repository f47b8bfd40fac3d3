package dev.switchboard.persistence;

import dev.switchboard.assistant.Assistant;
import dev.switchboard.backend.registry.McpServer;
import dev.switchboard.backend.registry.TransportKind;
import dev.switchboard.backend.tools.ToolAlias;
import jakarta.persistence.PersistenceException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.ResultSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The migrations and entities on each database: what is written is read back the same after a restart. */
class RegistryPersistenceTest {

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void serverSurvivesRestartWithEveryField(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            long id = db.inTransaction(em -> {
                McpServer s = server("everything 服务", TransportKind.STDIO);
                s.setCommand("npx");
                s.setArgsJson("[\"-y\",\"@modelcontextprotocol/server-everything\"]");
                s.setEnvJson("{\"TOKEN\":\"enc:v1:abc\"}");
                s.setDisabledToolsJson("[\"printEnv\"]");
                s.setAutoApproveToolsJson("[\"echo\"]");
                s.setActive(false);
                s.setScope(McpServer.Scope.SHARED);
                em.persist(s);
                em.flush();
                return s.getId();
            });
            db.reopen();
            McpServer read = db.inTransaction(em -> em.find(McpServer.class, id));
            assertEquals("everything 服务", read.getName());
            assertEquals(TransportKind.STDIO, read.getType());
            assertEquals("npx", read.getCommand());
            assertEquals("[\"-y\",\"@modelcontextprotocol/server-everything\"]", read.getArgsJson());
            assertEquals("{\"TOKEN\":\"enc:v1:abc\"}", read.getEnvJson());
            assertEquals("[\"printEnv\"]", read.getDisabledToolsJson());
            assertEquals("[\"echo\"]", read.getAutoApproveToolsJson());
            assertFalse(read.isActive());
            assertEquals(McpServer.Scope.SHARED, read.getScope());
            assertEquals(45, read.getTimeoutSeconds());
            assertNull(read.getBaseUrl());
            try (var c = db.jdbc(); ResultSet rs = c.createStatement().executeQuery("select type from mcp_servers")) {
                assertTrue(rs.next());
                assertEquals("stdio", rs.getString(1), "the seed's wire name is what the table holds");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void nameIsUniquePerOwner(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            db.run(em -> em.persist(server("dup", TransportKind.SSE)));
            assertThrows(PersistenceException.class, () -> db.run(em -> {
                em.persist(server("dup", TransportKind.SSE));
                em.flush();
            }));
            db.run(em -> {
                McpServer other = server("dup", TransportKind.SSE);
                other.setUserId("bob");
                em.persist(other);
            });
            assertEquals(2L, (long) db.inTransaction(em -> em.createQuery("select count(s) from McpServer s", Long.class).getSingleResult()));
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void deletingAServerDropsItsAssistantLinksAndAliases(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            long[] ids = db.inTransaction(em -> {
                McpServer a = server("a", TransportKind.STREAMABLE_HTTP);
                McpServer b = server("b", TransportKind.SSE);
                em.persist(a);
                em.persist(b);
                em.flush();
                Assistant assistant = new Assistant();
                assistant.setUserId("alice");
                assistant.setTenantId("default");
                assistant.setName("helper");
                assistant.setMcpServerIds(Set.of(a.getId(), b.getId()));
                em.persist(assistant);
                em.persist(new ToolAlias(a.getId(), "echo", "mcp__a__echo", 1L));
                em.flush();
                return new long[]{a.getId(), b.getId(), assistant.getId()};
            });
            db.reopen();
            assertEquals(Set.of(ids[0], ids[1]), db.inTransaction(em -> em.find(Assistant.class, ids[2]).getMcpServerIds()));
            db.run(em -> em.remove(em.find(McpServer.class, ids[0])));
            db.reopen();
            assertEquals(Set.of(ids[1]), db.inTransaction(em -> em.find(Assistant.class, ids[2]).getMcpServerIds()));
            assertEquals(0L, (long) db.inTransaction(em -> em.createQuery("select count(t) from ToolAlias t", Long.class).getSingleResult()));
            assertNotNull(db.inTransaction(em -> em.find(McpServer.class, ids[1])));
        }
    }

    static McpServer server(String name, TransportKind type) {
        McpServer s = new McpServer();
        s.setUserId("alice");
        s.setTenantId("default");
        s.setName(name);
        s.setType(type);
        if (type != TransportKind.STDIO) {
            s.setBaseUrl("http://127.0.0.1:3001/" + (type == TransportKind.SSE ? "sse" : "mcp"));
        }
        s.setTimeoutSeconds(45);
        s.setCreatedAt(1L);
        s.setUpdatedAt(2L);
        return s;
    }
}
