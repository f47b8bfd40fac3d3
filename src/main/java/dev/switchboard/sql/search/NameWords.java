package dev.switchboard.sql.search;

import java.util.Locale;

/** Identifiers as words: {@code order_items} -> "order items", {@code lastLoginAt} -> "last login at". */
final class NameWords {

    private NameWords() {
    }

    static String of(String identifier) {
        String spaced = identifier
                .replaceAll("([a-z0-9])([A-Z])", "$1 $2")
                .replaceAll("([A-Z]+)([A-Z][a-z])", "$1 $2")
                .replace('_', ' ')
                .replace('-', ' ');
        return spaced.toLowerCase(Locale.ROOT).strip();
    }
}
