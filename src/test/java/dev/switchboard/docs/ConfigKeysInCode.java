package dev.switchboard.docs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The configuration keys Java sources read, found the ways Switchboard reads them: {@code @ConfigProperty(name = ...)},
 * {@code getValue}/{@code getOptionalValue(s)}/{@code getValues}/{@code getConfigValue} on a MicroProfile
 * {@code Config}, and {@code System.getenv}/{@code System.getProperty} (the stdio launcher). A key built at run time
 * is resolved as far as the source allows: string constants (also another class's {@code Class.NAME}) and local
 * variables are followed; a method parameter becomes each string literal the file passes to that method; anything
 * else is a placeholder {@link #PLACEHOLDER} (for instance a backend's name).
 */
final class ConfigKeysInCode {

    /** Stands for a part of a key only known at run time. */
    static final String PLACEHOLDER = "<*>";

    private static final Pattern CONFIG_PROPERTY = Pattern.compile("@ConfigProperty\\s*\\(");
    private static final Pattern NAME_ARGUMENT = Pattern.compile("^\\s*name\\s*=\\s*");
    private static final Pattern CONFIG_CALL =
            Pattern.compile("\\b(\\w+)(\\(\\))?\\s*\\.\\s*(getValue|getOptionalValue|getOptionalValues|getValues|getConfigValue)\\s*\\(");
    private static final Pattern SYSTEM_LOOKUP =
            Pattern.compile("\\bSystem\\s*\\.\\s*(?:getenv\\s*\\(\\s*\\)\\s*\\.\\s*(?:get|getOrDefault)|getenv|getProperty)\\s*\\(");
    /**
     * A MicroProfile Fault Tolerance policy with tuning parameters on a method: its keys are
     * {@code <class>/<method>/<Policy>/<parameter>} (a {@code @Fallback} has none worth tuning; EJB's {@code @Timeout}
     * of timer callbacks is told apart by the file's imports).
     */
    private static final Pattern FAULT_TOLERANCE =
            Pattern.compile("@(Timeout|Retry|CircuitBreaker|Bulkhead)\\b(?:\\s*\\((?:[^()]|\\([^()]*\\))*\\))?");
    private static final Pattern NEXT_METHOD = Pattern.compile("\\b(\\w+)\\s*\\(");
    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern CONSTANT = Pattern.compile("\\bString\\s+(\\w+)\\s*=\\s*([^;]+);");
    private static final Pattern STRING = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_$][\\w$]*");
    private static final Pattern QUALIFIED = Pattern.compile("([A-Z][\\w$]*)\\.([A-Za-z_$][\\w$]*)");

    /** One key as read by one place in the code. */
    record ReadKey(String key, String source, int line) {
        String where() {
            return source + ":" + line;
        }
    }

    private final Map<String, String> sources = new LinkedHashMap<>();
    private final Map<String, String> stripped = new HashMap<>();

    /** Adds a Java source; {@code name} is its path as messages should show it (its file name is the class name). */
    void add(String name, String javaSource) {
        sources.put(name, javaSource);
        stripped.put(name, withoutComments(javaSource));
    }

    /** Every key read, once per place that reads it. */
    List<ReadKey> keys() {
        List<ReadKey> keys = new ArrayList<>();
        for (String name : sources.keySet()) {
            String code = stripped.get(name);
            Matcher p = CONFIG_PROPERTY.matcher(code);
            while (p.find()) {
                for (String argument : arguments(code, p.end())) {
                    Matcher n = NAME_ARGUMENT.matcher(argument);
                    if (n.find()) {
                        addAll(keys, name, code, p.start(), argument.substring(n.end()));
                    }
                }
            }
            Matcher c = CONFIG_CALL.matcher(code);
            while (c.find()) {
                boolean configReceiver = c.group(2) != null ? c.group(1).equals("getConfig")
                        : Pattern.compile("\\bConfig\\s+" + Pattern.quote(c.group(1)) + "\\b").matcher(code).find();
                String expression = firstArgument(code, c.end());
                if (configReceiver && !expression.isBlank()) {
                    addAll(keys, name, code, c.start(), expression);
                }
            }
            Matcher ft = FAULT_TOLERANCE.matcher(code);
            while (ft.find()) {
                String method = methodAfter(code, ft.end());
                boolean faultTolerance = sources.get(name).contains("import org.eclipse.microprofile.faulttolerance." + ft.group(1) + ";")
                        || sources.get(name).contains("import org.eclipse.microprofile.faulttolerance.*;");
                if (method != null && faultTolerance) {
                    keys.add(new ReadKey(className(name, code) + "/" + method + "/" + ft.group(1) + "/" + PLACEHOLDER, name,
                            TextLines.lineOf(code, ft.start())));
                }
            }
            Matcher s = SYSTEM_LOOKUP.matcher(code);
            while (s.find()) {
                addAll(keys, name, code, s.start(), firstArgument(code, s.end()));
            }
        }
        return keys;
    }

    /** The method an annotation at {@code from} belongs to: the first name followed by '(' that is not an annotation. */
    private static String methodAfter(String code, int from) {
        Matcher m = NEXT_METHOD.matcher(code);
        int at = from;
        while (m.find(at)) {
            boolean annotation = m.start() > 0 && code.charAt(m.start() - 1) == '@';
            if (!annotation) {
                return m.group(1);
            }
            at = m.end();
        }
        return null;
    }

    /** The fully qualified name of the class a source file declares (named after the file). */
    private static String className(String name, String code) {
        Matcher p = PACKAGE.matcher(code);
        String simple = name.substring(name.lastIndexOf('/') + 1).replace(".java", "");
        return p.find() ? p.group(1) + "." + simple : simple;
    }

    private void addAll(List<ReadKey> keys, String name, String code, int at, String expression) {
        int line = TextLines.lineOf(code, at);
        for (String key : resolve(name, code, at, expression.strip(), 0)) {
            keys.add(new ReadKey(key, name, line));
        }
    }

    /** The keys an expression can be: a concatenation of literals, constants, variables and parameters. */
    private List<String> resolve(String file, String code, int at, String expression, int depth) {
        List<String> results = List.of("");
        for (String term : terms(expression)) {
            List<String> values = termValues(file, code, at, term.strip(), depth);
            List<String> next = new ArrayList<>();
            for (String prefix : results) {
                for (String value : values) {
                    next.add(prefix + value);
                }
            }
            results = next;
        }
        return results;
    }

    private List<String> termValues(String file, String code, int at, String term, int depth) {
        Matcher literal = STRING.matcher(term);
        if (literal.matches()) {
            return List.of(literal.group(1));
        }
        if (depth > 5) {
            return List.of(PLACEHOLDER);
        }
        Matcher qualified = QUALIFIED.matcher(term);
        if (qualified.matches()) {
            String other = fileOfClass(qualified.group(1));
            if (other != null) {
                String value = constantExpression(stripped.get(other), qualified.group(2), stripped.get(other).length());
                if (value != null) {
                    return resolve(other, stripped.get(other), 0, value, depth + 1);
                }
            }
            return List.of(PLACEHOLDER);
        }
        if (!IDENTIFIER.matcher(term).matches()) {
            return List.of(PLACEHOLDER);
        }
        String value = constantExpression(code, term, at);
        if (value != null && !value.contains("(")) {
            return resolve(file, code, at, value, depth + 1);
        }
        List<String> arguments = literalArgumentsForParameter(code, term, at);
        return arguments.isEmpty() ? List.of(PLACEHOLDER) : arguments;
    }

    /** {@code String name = ...;} nearest before {@code at} (a local), else anywhere in the file (a constant). */
    private static String constantExpression(String code, String name, int at) {
        String found = null;
        Matcher m = CONSTANT.matcher(code);
        while (m.find()) {
            if (m.group(1).equals(name) && (found == null || m.start() < at)) {
                found = m.group(2).strip();
            }
        }
        return found;
    }

    /** When {@code name} is a parameter of the method around {@code at}: the string literals the file passes there. */
    private static List<String> literalArgumentsForParameter(String code, String name, int at) {
        Matcher method = Pattern.compile("\\b(\\w+)\\s*\\(([^()]*\\bString\\s+" + Pattern.quote(name) + "\\b[^()]*)\\)\\s*(?:throws[^{]*)?\\{")
                .matcher(code);
        String methodName = null;
        String parameters = null;
        while (method.find() && method.start() < at) {
            methodName = method.group(1);
            parameters = method.group(2);
        }
        if (methodName == null) {
            return List.of();
        }
        int position = 0;
        for (String parameter : parameters.split(",")) {
            if (parameter.strip().matches(".*\\b" + Pattern.quote(name))) {
                break;
            }
            position++;
        }
        List<String> values = new ArrayList<>();
        Matcher call = Pattern.compile("\\b" + Pattern.quote(methodName) + "\\s*\\(").matcher(code);
        while (call.find()) {
            List<String> arguments = arguments(code, call.end());
            if (position < arguments.size()) {
                Matcher literal = STRING.matcher(arguments.get(position).strip());
                if (literal.matches()) {
                    values.add(literal.group(1));
                }
            }
        }
        return values;
    }

    private String fileOfClass(String simpleName) {
        for (String name : sources.keySet()) {
            if (name.endsWith("/" + simpleName + ".java") || name.equals(simpleName + ".java")) {
                return name;
            }
        }
        return null;
    }

    private static String firstArgument(String code, int from) {
        List<String> arguments = arguments(code, from);
        return arguments.isEmpty() ? "" : arguments.get(0);
    }

    /** The top-level arguments from {@code from} (just after an opening parenthesis) to its closing one. */
    private static List<String> arguments(String code, int from) {
        List<String> arguments = new ArrayList<>();
        int depth = 0;
        int start = from;
        for (int i = from; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '"') {
                i = endOfString(code, i);
            } else if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if (c == ')' || c == ']' || c == '}') {
                if (depth == 0) {
                    String last = code.substring(start, i);
                    if (!last.isBlank() || !arguments.isEmpty()) {
                        arguments.add(last);
                    }
                    return arguments;
                }
                depth--;
            } else if (c == ',' && depth == 0) {
                arguments.add(code.substring(start, i));
                start = i + 1;
            }
        }
        return arguments;
    }

    /** The terms of a string concatenation, split at the top-level {@code +}. */
    private static List<String> terms(String expression) {
        List<String> terms = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < expression.length(); i++) {
            char c = expression.charAt(i);
            if (c == '"') {
                i = endOfString(expression, i);
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == '+' && depth == 0) {
                terms.add(expression.substring(start, i));
                start = i + 1;
            }
        }
        terms.add(expression.substring(start));
        return terms;
    }

    private static int endOfString(String code, int open) {
        for (int i = open + 1; i < code.length(); i++) {
            if (code.charAt(i) == '\\') {
                i++;
            } else if (code.charAt(i) == '"') {
                return i;
            }
        }
        return code.length();
    }

    /** The source with comments blanked (strings and line breaks kept, so offsets and lines stay). */
    static String withoutComments(String source) {
        StringBuilder out = new StringBuilder(source);
        for (int i = 0; i < source.length(); i++) {
            char c = source.charAt(i);
            if (c == '"') {
                i = endOfString(source, i);
            } else if (c == '\'') {
                int close = source.indexOf('\'', i + (source.charAt(i + 1) == '\\' ? 3 : 2));
                i = close < 0 ? i : close;
            } else if (source.startsWith("//", i)) {
                int end = source.indexOf('\n', i);
                end = end < 0 ? source.length() : end;
                blank(out, i, end);
                i = end;
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                end = end < 0 ? source.length() : end + 2;
                blank(out, i, end);
                i = end - 1;
            }
        }
        return out.toString();
    }

    private static void blank(StringBuilder out, int from, int to) {
        for (int k = from; k < to; k++) {
            if (out.charAt(k) != '\n') {
                out.setCharAt(k, ' ');
            }
        }
    }

}
