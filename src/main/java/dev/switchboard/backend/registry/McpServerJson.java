package dev.switchboard.backend.registry;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.io.StringReader;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** Text <-> value conversions for the registry's JSON-valued columns. */
final class McpServerJson {

    private McpServerJson() {
    }

    static String writeList(List<String> values) {
        if (values == null) {
            return null;
        }
        JsonArrayBuilder array = JSON.createArrayBuilder();
        values.forEach(array::add);
        return array.build().toString();
    }

    static List<String> readList(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        try (var reader = JSON.createReader(new StringReader(text))) {
            JsonArray array = reader.readArray();
            return array.getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
        }
    }

    static String writeMap(Map<String, String> values) {
        if (values == null) {
            return null;
        }
        JsonObjectBuilder object = JSON.createObjectBuilder();
        values.forEach(object::add);
        return object.build().toString();
    }

    static Map<String, String> readMap(String text) {
        Map<String, String> map = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return map;
        }
        try (var reader = JSON.createReader(new StringReader(text))) {
            JsonObject object = reader.readObject();
            object.forEach((k, v) -> map.put(k, v.getValueType() == JsonValue.ValueType.STRING
                    ? ((JsonString) v).getString() : v.toString()));
        }
        return map;
    }
}
