package dev.switchboard.platform.json;

import jakarta.json.spi.JsonProvider;
import jakarta.json.stream.JsonParser;

import java.io.StringReader;

/**
 * Streams over the top-level keys of a JSON object without building it: for judging a message that may be too large
 * to be worth building, or that cannot be read whole. A text that stops being JSON is judged by the keys before
 * that point.
 */
public final class TopLevelKeys {

    /** Sees one top-level key, the parser standing on it (the key's value is the parser's next event). */
    @FunctionalInterface
    public interface Visitor {
        /** @return whether to go on to the next key */
        boolean key(String key, JsonParser parser);
    }

    private TopLevelKeys() {
    }

    /** Hands each top-level key to the visitor until it stops or the object ends; false when the text is no object. */
    public static boolean scan(JsonProvider json, String text, Visitor visitor) {
        try (JsonParser parser = json.createParser(new StringReader(text))) {
            if (!parser.hasNext() || parser.next() != JsonParser.Event.START_OBJECT) {
                return false;
            }
            int depth = 1;
            while (depth > 0 && parser.hasNext()) {
                switch (parser.next()) {
                    case START_OBJECT, START_ARRAY -> depth++;
                    case END_OBJECT, END_ARRAY -> depth--;
                    case KEY_NAME -> {
                        if (depth == 1 && !visitor.key(parser.getString(), parser)) {
                            return true;
                        }
                    }
                    default -> {
                        // values are skipped
                    }
                }
            }
        } catch (RuntimeException e) {
            // not JSON, or beyond the parser's limits, from here on (Parsson refuses depth with a plain runtime exception)
        }
        return true;
    }
}
