package dev.switchboard.sql.guard;

import java.util.Set;

/**
 * A statement the guard accepted, rewritten to what may run: {@code sql} carries the LIMIT/OFFSET of the
 * caller's window and asks for one row more than {@code rowLimit} when more rows could exist, so the executor
 * can tell a cut result ({@code truncated}) from a complete one.
 */
public record GuardedSql(String sql, Set<String> tables, int rowLimit) {

    public GuardedSql {
        tables = Set.copyOf(tables);
    }
}
