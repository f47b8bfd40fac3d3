package dev.switchboard.sql.service;

import dev.switchboard.sql.explain.SqlFacts;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Words for what a statement does, built from its parsed facts (so they cannot claim what the SQL does not do). */
final class Explanations {

    private Explanations() {
    }

    static String intent(SqlFacts facts) {
        List<String> ops = facts.operations();
        if (ops.contains("GROUP BY") || ops.stream().anyMatch(o -> List.of("COUNT", "SUM", "AVG", "MIN", "MAX").contains(o))) {
            return "统计聚合查询";
        }
        if (ops.contains("JOIN")) {
            return "多表关联查询";
        }
        return ops.contains("WHERE") ? "条件查询" : "数据检索查询";
    }

    /** @param rowCount rows returned, or negative when the statement was not run */
    static String of(SqlFacts facts, int rowCount) {
        StringBuilder text = new StringBuilder("这个查询从 ").append(String.join("、", facts.tables())).append(" 表");
        if (facts.operations().contains("JOIN")) {
            text.append("关联");
        }
        text.append("读取 ").append(String.join("、", facts.columns()));
        if (!facts.conditions().isEmpty()) {
            text.append("，条件为 ").append(String.join(" 且 ", facts.conditions()));
        }
        List<String> shown = facts.operations().stream().filter(o -> !List.of("WHERE", "JOIN", "LIMIT").contains(o)).toList();
        if (!shown.isEmpty()) {
            text.append("，使用 ").append(String.join("、", shown));
        }
        text.append("（复杂度：").append(facts.complexity()).append("）");
        if (rowCount >= 0) {
            text.append("，返回 ").append(rowCount).append(" 行");
        }
        return text.append("。").toString();
    }

    static List<String> suggestions(SqlFacts facts, String sql) {
        List<String> out = new ArrayList<>();
        String upper = sql.toUpperCase(Locale.ROOT);
        if (facts.columns().contains("*") || facts.columns().stream().anyMatch(c -> c.endsWith(".*"))) {
            out.add("只选择需要的列，而不是 SELECT *");
        }
        if (!facts.operations().contains("ORDER BY")) {
            out.add("可以添加 ORDER BY 使结果顺序稳定");
        }
        if (facts.operations().contains("GROUP BY") && !facts.operations().contains("HAVING")) {
            out.add("考虑添加 HAVING 子句过滤分组结果");
        }
        if (upper.contains("LIKE '%")) {
            out.add("以 % 开头的 LIKE 用不上索引，数据量大时较慢");
        }
        return out;
    }
}
