package dev.switchboard.sql.execute;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The server-side time limit each dialect attaches, and the multi-statement switch forced off. */
class QueryDatabaseKindTest {

    @Test
    void serverSideTimeLimit() {
        assertEquals("SELECT 1 LIMIT 21", QueryDatabaseKind.H2.withServerTimeout("SELECT 1 LIMIT 21", 30));
        assertEquals("SET STATEMENT max_statement_time=30 FOR SELECT 1", QueryDatabaseKind.MARIADB.withServerTimeout("SELECT 1", 30));
        assertEquals("SELECT /*+ MAX_EXECUTION_TIME(30000) */ id FROM users", QueryDatabaseKind.MYSQL.withServerTimeout("SELECT id FROM users", 30));
        // the hint has no place before WITH or a parenthesis; the JDBC timeout still applies
        assertEquals("WITH a AS (SELECT 1) SELECT * FROM a", QueryDatabaseKind.MYSQL.withServerTimeout("WITH a AS (SELECT 1) SELECT * FROM a", 30));
    }

    @Test
    void multiStatementsForcedOffOnMysqlUrls() {
        assertEquals("jdbc:mysql://db:3306/shop?allowMultiQueries=false",
                JdbcQueryConnectionSource.withoutMultiQueries("jdbc:mysql://db:3306/shop"));
        assertEquals("jdbc:mysql://db/shop?useSSL=false&allowMultiQueries=false",
                JdbcQueryConnectionSource.withoutMultiQueries("jdbc:mysql://db/shop?allowMultiQueries=true&useSSL=false"));
        assertEquals("jdbc:mariadb://db/shop?allowMultiQueries=false",
                JdbcQueryConnectionSource.withoutMultiQueries("jdbc:mariadb://db/shop?ALLOWMULTIQUERIES=TRUE"));
        assertEquals("jdbc:h2:mem:x;MODE=MySQL", JdbcQueryConnectionSource.withoutMultiQueries("jdbc:h2:mem:x;MODE=MySQL"));
    }
}
