package dev.switchboard.platform;

import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.MessageBodyReader;
import jakarta.ws.rs.ext.Provider;

import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * Reads request bodies declared as {@link JsonObject} or {@link JsonValue}: malformed text, nesting too deep for
 * the parser, or (for JsonObject) anything but one object is a 400 {@code invalid_json}, never a 500.
 */
@Provider
@Consumes({MediaType.APPLICATION_JSON, "application/*+json", "text/json"})
public class JsonBodyReader implements MessageBodyReader<JsonValue> {

    @Override
    public boolean isReadable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return type == JsonObject.class || type == JsonValue.class;
    }

    @Override
    public JsonValue readFrom(Class<JsonValue> type, Type genericType, Annotation[] annotations, MediaType mediaType,
                               MultivaluedMap<String, String> headers, InputStream body) {
        JsonValue value;
        try (JsonReader reader = JSON.createReader(body)) {
            value = reader.readValue();
        } catch (RuntimeException e) {
            throw invalid("Malformed JSON: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        }
        if (JsonObject.class.equals(type) && value.getValueType() != JsonValue.ValueType.OBJECT) {
            throw invalid("The request body must be a JSON object, got " + value.getValueType().name().toLowerCase());
        }
        return value;
    }

    private static WebApplicationException invalid(String message) {
        return new WebApplicationException(ApiError.badRequest(message, "invalid_json"));
    }
}
