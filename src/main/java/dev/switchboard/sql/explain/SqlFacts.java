package dev.switchboard.sql.explain;

import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.util.TablesNamesFinder;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What a SELECT does, read from its parse tree rather than from anyone's description of it: the tables, the
 * selected columns, the conditions, the operations (JOIN, GROUP BY, COUNT, ...) and a complexity grade.
 * Only called on statements the guard accepted, so the statement is one SELECT.
 */
public record SqlFacts(List<String> tables, List<String> columns, List<String> conditions, List<String> operations,
                       String complexity) {

    private static final Set<String> AGGREGATES = Set.of("COUNT", "SUM", "AVG", "MIN", "MAX", "GROUP_CONCAT");

    public static SqlFacts of(String sql) {
        Statement statement;
        try {
            statement = CCJSqlParserUtil.parse(sql);
        } catch (JSQLParserException e) {
            throw new QueryException(QueryErrorCode.SQL, "SQL 无法解析", Map.of("sql", sql));
        }
        if (!(statement instanceof Select select)) {
            throw new QueryException(QueryErrorCode.QUERY, "只能解释 SELECT 语句", Map.of("sql", sql, "reason", "not_select"));
        }
        Set<String> tables = new LinkedHashSet<>();
        new TablesNamesFinder<Void>().getTables(statement).forEach(t -> tables.add(t.toLowerCase(Locale.ROOT)));
        Set<String> columns = new LinkedHashSet<>();
        List<String> conditions = new ArrayList<>();
        Set<String> operations = new LinkedHashSet<>();
        if (select.getWithItemsList() != null && !select.getWithItemsList().isEmpty()) {
            operations.add("WITH");
        }
        collect(select, columns, conditions, operations);
        if (select.getOrderByElements() != null && !select.getOrderByElements().isEmpty()) {
            operations.add("ORDER BY");
        }
        if (sql.toUpperCase(Locale.ROOT).replaceAll("\\s+", "").contains("(SELECT")) {
            operations.add("SUBQUERY");
        }
        return new SqlFacts(List.copyOf(tables), List.copyOf(columns), conditions, List.copyOf(operations),
                complexity(tables.size(), operations));
    }

    private static void collect(Select select, Set<String> columns, List<String> conditions, Set<String> operations) {
        if (select instanceof SetOperationList set) {
            set.getOperations().forEach(op -> operations.add(op.toString().toUpperCase(Locale.ROOT)));
            set.getSelects().forEach(s -> collect(s, columns, conditions, operations));
            return;
        }
        PlainSelect plain = select.getPlainSelect();
        if (plain == null) {
            return;
        }
        for (SelectItem<?> item : plain.getSelectItems()) {
            Expression expression = item.getExpression();
            if (expression instanceof Function f && f.getName() != null && AGGREGATES.contains(f.getName().toUpperCase(Locale.ROOT))) {
                operations.add(f.getName().toUpperCase(Locale.ROOT));
            }
            columns.add(expression instanceof Column c ? c.getColumnName().toLowerCase(Locale.ROOT) : expression.toString());
        }
        if (plain.getDistinct() != null) {
            operations.add("DISTINCT");
        }
        if (plain.getJoins() != null) {
            for (Join join : plain.getJoins()) {
                operations.add("JOIN");
                join.getOnExpressions().forEach(on -> conditions.add(on.toString()));
            }
        }
        if (plain.getWhere() != null) {
            operations.add("WHERE");
            splitAnd(plain.getWhere(), conditions);
        }
        if (plain.getGroupBy() != null) {
            operations.add("GROUP BY");
        }
        if (plain.getHaving() != null) {
            operations.add("HAVING");
            conditions.add(plain.getHaving().toString());
        }
        if (plain.getOrderByElements() != null && !plain.getOrderByElements().isEmpty()) {
            operations.add("ORDER BY");
        }
        if (plain.getLimit() != null) {
            operations.add("LIMIT");
        }
    }

    private static void splitAnd(Expression expression, List<String> into) {
        if (expression instanceof AndExpression and) {
            splitAnd(((BinaryExpression) and).getLeftExpression(), into);
            splitAnd(((BinaryExpression) and).getRightExpression(), into);
        } else {
            into.add(expression.toString());
        }
    }

    /** simple: one table, no grouping or nesting; complex: several of joins, grouping, nesting and set operations. */
    private static String complexity(int tableCount, Set<String> operations) {
        int weight = Math.max(0, tableCount - 1);
        for (String op : List.of("GROUP BY", "HAVING", "SUBQUERY", "WITH", "UNION", "UNION ALL", "INTERSECT", "EXCEPT")) {
            weight += operations.contains(op) ? 1 : 0;
        }
        return weight == 0 ? "simple" : weight <= 2 ? "medium" : "complex";
    }
}
