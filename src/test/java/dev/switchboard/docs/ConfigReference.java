package dev.switchboard.docs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The configuration reference (a Markdown file whose tables name keys in their first column, in backticks) held
 * against the keys the code reads. A part in angle brackets ({@code <name>} in the reference,
 * {@link ConfigKeysInCode#PLACEHOLDER} in the code) stands for any text, so
 * {@code switchboard.resilience.backend.<name>.<key>} covers what the code builds from a backend's name.
 */
final class ConfigReference {

    private static final Pattern TABLE_ROW = Pattern.compile("^\\|(.*?)\\|");
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");
    private static final Pattern PLACEHOLDER = Pattern.compile("<[^<>]*>");

    private ConfigReference() {
    }

    /** The keys a reference documents, each with the line it is on: every code span in a table row's first cell. */
    static Map<String, Integer> documentedKeys(String markdown) {
        Map<String, Integer> keys = new LinkedHashMap<>();
        String[] lines = markdown.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            Matcher row = TABLE_ROW.matcher(lines[i]);
            if (row.find()) {
                Matcher code = CODE.matcher(row.group(1));
                while (code.find()) {
                    keys.putIfAbsent(code.group(1).strip(), i + 1);
                }
            }
        }
        return keys;
    }

    /** What is documented but not read, and read but not documented, one message per key, naming the side that lacks it. */
    static List<String> problems(List<ConfigKeysInCode.ReadKey> read, Map<String, Integer> documented, String reference) {
        List<String> problems = new ArrayList<>();
        Map<String, ConfigKeysInCode.ReadKey> firstRead = new LinkedHashMap<>();
        read.forEach(k -> firstRead.putIfAbsent(k.key(), k));
        firstRead.forEach((key, where) -> {
            if (documented.keySet().stream().noneMatch(d -> sameKey(d, key))) {
                problems.add("configuration key '" + key + "' is read by the code (" + where.where()
                        + ") but not documented in " + reference);
            }
        });
        documented.forEach((key, line) -> {
            if (firstRead.keySet().stream().noneMatch(r -> sameKey(key, r))) {
                problems.add("configuration key '" + key + "' is documented in " + reference + ":" + line
                        + " but not read by the code");
            }
        });
        return problems;
    }

    /** Whether two keys can name the same setting: equal, or equal once a placeholder of either side stands for a part. */
    static boolean sameKey(String a, String b) {
        return a.equals(b) || pattern(a).matcher(b).matches() || pattern(b).matcher(a).matches();
    }

    private static Pattern pattern(String key) {
        StringBuilder regex = new StringBuilder();
        Matcher m = PLACEHOLDER.matcher(key);
        int at = 0;
        while (m.find()) {
            regex.append(Pattern.quote(key.substring(at, m.start()))).append(".+");
            at = m.end();
        }
        regex.append(Pattern.quote(key.substring(at)));
        return Pattern.compile(regex.toString());
    }
}
