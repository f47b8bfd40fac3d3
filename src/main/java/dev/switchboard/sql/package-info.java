/**
 * NL->SQL: the query database, the SQL guard and guarded executor, schema catalog and search, the query, schema and
 * session methods, the query dialect and its transports ({@code sql.dialect}, {@code sql.tcp}), {@code /api/query}
 * and the built-in {@code sqlquery} tools.
 * <p>
 * May use: {@code platform}, {@code security}, {@code mcp}, {@code llm}, {@code backend} (the allowed arrows of
 * docs/architecture.md, checked by {@code ArchitectureTest}).
 */
package dev.switchboard.sql;
