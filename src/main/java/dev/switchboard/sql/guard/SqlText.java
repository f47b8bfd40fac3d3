package dev.switchboard.sql.guard;

/**
 * Reads statement text the way MySQL/MariaDB lex it and removes the comments before the parser sees it, so the
 * parser and the server agree on what is code. Everything where they could disagree is refused instead:
 * executable comments ({@code /*! ... *}{@code /}, MariaDB's {@code /*M! ... *}{@code /}) and optimizer hints
 * ({@code /*+ ... *}{@code /}) are code to the server but comments to the parser; {@code --} without a following
 * space is an operator to the server but a comment to the parser; a backslash escape changes where a literal ends
 * depending on the server's sql_mode; the parser knows literal forms the server does not ({@code q'[...]'},
 * {@code E'...'}, {@code $$...$$}) and would take code for a string.
 */
final class SqlText {

    private SqlText() {
    }

    /** The text with every comment replaced by one space; refuses what the server and the parser would read differently. */
    static String withoutComments(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                if (c != '`') {
                    refuseUnknownLiteralPrefix(sql, i);
                }
                int end = endOfQuoted(sql, i);
                out.append(sql, i, end);
                i = end;
            } else if (c == '$' && i + 1 < n && sql.charAt(i + 1) == '$') {
                throw Refusal.of(sql, "dollar_quote", "不允许 $$ 引号：数据库把它当作标识符，解析器当作字符串");
            } else if (c == '#') {
                i = endOfLine(sql, i);
                out.append(' ');
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                if (i + 2 < n && !isCommentSpace(sql.charAt(i + 2))) {
                    throw Refusal.of(sql, "ambiguous_comment", "'--' 后须跟空白才是注释，否则数据库与解析器理解不同");
                }
                i = endOfLine(sql, i);
                out.append(' ');
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                String opening = sql.substring(i + 2, Math.min(n, i + 4));
                if (opening.startsWith("!") || opening.startsWith("M!") || opening.startsWith("m!")) {
                    throw Refusal.of(sql, "executable_comment", "不允许 MySQL 可执行注释 /*! ... */");
                }
                if (opening.startsWith("+")) {
                    throw Refusal.of(sql, "optimizer_hint", "不允许优化器提示 /*+ ... */");
                }
                int close = sql.indexOf("*/", i + 2);
                if (close < 0) {
                    throw Refusal.of(sql, "unterminated_comment", "注释没有结束");
                }
                i = close + 2;
                out.append(' ');
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /**
     * A literal may follow a word only as one of MySQL's own forms: N'..', X'..', B'..' or a charset introducer
     * (_utf8mb4'..'). Anything else (Oracle's q'[..]', PostgreSQL's E'..') the parser reads as one string while
     * MySQL reads an identifier and a shorter string followed by code.
     */
    private static void refuseUnknownLiteralPrefix(String sql, int quote) {
        int start = quote;
        while (start > 0 && isIdentifierChar(sql.charAt(start - 1))) {
            start--;
        }
        String prefix = sql.substring(start, quote);
        boolean mysqlForm = prefix.isEmpty() || prefix.equalsIgnoreCase("N") || prefix.equalsIgnoreCase("X")
                || prefix.equalsIgnoreCase("B") || prefix.startsWith("_");
        if (!mysqlForm) {
            throw Refusal.of(sql, "literal_prefix", "无法识别的字面量前缀 " + prefix);
        }
    }

    private static boolean isIdentifierChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    /** Index just past the closing quote; a doubled quote stays inside. An unterminated literal ends the text (the parser refuses it). */
    private static int endOfQuoted(String sql, int start) {
        char quote = sql.charAt(start);
        int i = start + 1;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\\') {
                throw Refusal.of(sql, "backslash_escape", "字符串和标识符中不允许反斜杠转义");
            }
            if (c == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return sql.length();
    }

    private static int endOfLine(String sql, int from) {
        int newline = sql.indexOf('\n', from);
        return newline < 0 ? sql.length() : newline + 1;
    }

    /** MySQL starts a '--' comment only when a space or control character follows. */
    private static boolean isCommentSpace(char c) {
        return c <= ' ';
    }
}
