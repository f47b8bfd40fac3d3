package dev.switchboard.sql.guard;

import dev.switchboard.sql.QueryException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every hostile statement of the corpus is refused with its expected code and reason; every legitimate one passes. */
class SqlGuardCorpusTest {

    private final SqlGuard guard = new SqlGuard("demo", () -> SqlCorpus.DEMO_TABLES, SqlCorpus.PARSER_THREADS);

    static List<SqlCorpus.Hostile> hostile() {
        return SqlCorpus.hostile();
    }

    static List<SqlCorpus.Legitimate> legitimate() {
        return SqlCorpus.legitimate();
    }

    @Test
    void corpusIsLargeEnough() {
        assertTrue(hostile().size() >= 40, "at least 40 hostile statements, found " + hostile().size());
        assertTrue(legitimate().size() >= 20);
    }

    @ParameterizedTest
    @MethodSource("hostile")
    void refused(SqlCorpus.Hostile statement) {
        QueryException e = assertThrows(QueryException.class,
                () -> guard.check(statement.sql(), SqlCorpus.HOSTILE_CALLER, RowWindow.DEFAULT),
                () -> "accepted: " + statement);
        assertEquals(statement.code(), e.code().code(), () -> statement + " -> " + e.code() + " " + e.data());
        if (statement.reason() != null) {
            assertEquals(statement.reason(), e.data().get("reason"), statement::toString);
        }
    }

    @ParameterizedTest
    @MethodSource("legitimate")
    void accepted(SqlCorpus.Legitimate statement) {
        GuardedSql guarded = guard.check(statement.sql(), SqlCorpus.LEGITIMATE_CALLER, RowWindow.DEFAULT);
        assertTrue(guarded.sql().toUpperCase().contains("LIMIT"), guarded::sql);
    }
}
