package dev.switchboard.sql.guard;

import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.AllTableColumns;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every node of a parsed statement, found by walking all fields rather than by a visitor: a visitor sees only
 * what its author thought of, while this sees a table or function wherever the parser put it (subqueries in
 * any clause, CTEs, unions, derived tables, function arguments, ...). The qualifier of a column ({@code u} in
 * {@code u.id}, {@code u.*}) is an alias, not a table reference, and is skipped.
 */
final class SqlTree {

    private static final String PARSER_PACKAGE = "net.sf.jsqlparser.";
    /** Parser internals (token chains with parent links) that carry no meaning for the guard. */
    private static final String TOKEN_PACKAGE = "net.sf.jsqlparser.parser.";
    private static final Map<Class<?>, List<Field>> FIELDS = new ConcurrentHashMap<>();

    private SqlTree() {
    }

    static List<Object> nodes(Object root) {
        List<Object> nodes = new ArrayList<>();
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Object> pending = new ArrayDeque<>();
        pending.push(root);
        while (!pending.isEmpty()) {
            Object node = pending.pop();
            if (!seen.add(node)) {
                continue;
            }
            nodes.add(node);
            for (Field field : fields(node.getClass())) {
                if (isQualifier(node, field)) {
                    continue;
                }
                children(read(field, node), pending);
            }
        }
        return nodes;
    }

    private static boolean isQualifier(Object node, Field field) {
        return (node instanceof Column || node instanceof AllTableColumns) && field.getName().equals("table");
    }

    private static void children(Object value, Deque<Object> pending) {
        if (value == null) {
            return;
        }
        if (value instanceof Collection<?> collection) {
            collection.forEach(v -> children(v, pending));
        } else if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> {
                children(k, pending);
                children(v, pending);
            });
        } else if (value instanceof Object[] array) {
            for (Object v : array) {
                children(v, pending);
            }
        } else if (isParserNode(value.getClass())) {
            pending.push(value);
        }
    }

    private static boolean isParserNode(Class<?> type) {
        String name = type.getName();
        return name.startsWith(PARSER_PACKAGE) && !name.startsWith(TOKEN_PACKAGE) && !type.isEnum();
    }

    private static List<Field> fields(Class<?> type) {
        return FIELDS.computeIfAbsent(type, t -> {
            List<Field> fields = new ArrayList<>();
            for (Class<?> c = t; c != null && c != Object.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (!Modifier.isStatic(f.getModifiers()) && !f.getType().isPrimitive()) {
                        f.setAccessible(true);
                        fields.add(f);
                    }
                }
            }
            return List.copyOf(fields);
        });
    }

    private static Object read(Field field, Object node) {
        try {
            return field.get(node);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read " + field, e);
        }
    }
}
