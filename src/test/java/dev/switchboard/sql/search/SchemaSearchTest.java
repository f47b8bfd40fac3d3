package dev.switchboard.sql.search;

import dev.switchboard.persistence.TestDatabase;
import dev.switchboard.sql.DemoQueryDatabase;
import dev.switchboard.sql.Permissions;
import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import dev.switchboard.sql.catalog.SchemaCatalog;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Clock;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** schema.search ranks the demo schema for Chinese and English phrases, on H2 and MariaDB. */
class SchemaSearchTest {

    private static final Permissions ADMIN = Permissions.of(Permissions.ADMIN);

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void userOrdersRanksUsersOrdersAndTheJoiningColumnOnTop(TestDatabase.Kind kind) throws Exception {
        try (DemoQueryDatabase db = DemoQueryDatabase.open(kind)) {
            SchemaHits hits = search(db).search("用户订单", 10, ADMIN);
            List<String> tables = hits.tables().stream().map(SchemaHits.TableHit::name).toList();
            assertEquals(List.of("orders", "users"), tables.subList(0, 2).stream().sorted().toList(), tables::toString);
            SchemaHits.ColumnHit first = hits.columns().get(0);
            assertEquals("orders.user_id", first.table() + "." + first.column(), hits.columns()::toString);
            assertEquals("用户ID", first.comment());
            assertEquals("用户信息表", hits.tables().stream().filter(t -> t.name().equals("users")).findFirst().orElseThrow().comment());
            assertRelevanceInRange(hits);
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void englishWordsMatchSplitAndPluralNames(TestDatabase.Kind kind) throws Exception {
        try (DemoQueryDatabase db = DemoQueryDatabase.open(kind)) {
            SchemaSearch search = search(db);
            SchemaHits orders = search.search("order items", 5, ADMIN);
            assertEquals("order_items", orders.tables().get(0).name(), orders::toString);
            SchemaHits login = search.search("last login time", 5, ADMIN);
            assertTrue(login.columns().stream().anyMatch(c -> c.column().equals("last_login_at")), login::toString);
            assertRelevanceInRange(login);
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void permissionsFilterTablesAndColumns(TestDatabase.Kind kind) throws Exception {
        try (DemoQueryDatabase db = DemoQueryDatabase.open(kind)) {
            SchemaHits hits = search(db).search("用户订单", 10, Permissions.of("table:orders:read", "schema:read"));
            assertEquals(List.of("orders"), hits.tables().stream().map(SchemaHits.TableHit::name).toList());
            assertTrue(hits.columns().stream().allMatch(c -> c.table().equals("orders")), hits::toString);
            assertFalse(hits.columns().isEmpty());
            assertEquals(1.0, hits.columns().get(0).relevance() >= hits.tables().get(0).relevance()
                    ? hits.columns().get(0).relevance() : hits.tables().get(0).relevance());
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.sql.DemoQueryDatabase#kinds")
    void limitsAndEmptyPhrases(TestDatabase.Kind kind) throws Exception {
        try (DemoQueryDatabase db = DemoQueryDatabase.open(kind)) {
            SchemaSearch search = search(db);
            assertEquals(2, search.search("用户", 2, ADMIN).tables().size());
            assertEquals(QueryErrorCode.INVALID_PARAMS, assertThrows(QueryException.class, () -> search.search(" ", 5, ADMIN)).code());
            assertEquals(QueryErrorCode.INVALID_PARAMS, assertThrows(QueryException.class, () -> search.search("x", 0, ADMIN)).code());
            SchemaHits nothing = search.search("zzzqqq", 5, ADMIN);
            assertTrue(nothing.tables().isEmpty() && nothing.columns().isEmpty());
            // query syntax is text here, never Lucene operators
            search.search("users AND (orders OR", 5, ADMIN);
        }
    }

    private static SchemaSearch search(DemoQueryDatabase db) {
        return new SchemaSearch(new SchemaCatalog(db.source(), SchemaCatalog.DEFAULT_TTL, Clock.systemUTC()));
    }

    private static void assertRelevanceInRange(SchemaHits hits) {
        hits.tables().forEach(t -> assertTrue(t.relevance() > 0 && t.relevance() <= 1, t::toString));
        hits.columns().forEach(c -> assertTrue(c.relevance() > 0 && c.relevance() <= 1, c::toString));
    }
}
