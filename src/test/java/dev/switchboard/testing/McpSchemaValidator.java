package dev.switchboard.testing;

import com.networknt.schema.InputFormat;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks that a JSON-RPC message is something an MCP client may send in a given protocol version, against the
 * official schema in {@code switchboard.schema.dir/<version>/schema.json}: a request must be a JSONRPCRequest and
 * the ClientRequest for its method, a notification a JSONRPCNotification and the matching ClientNotification, a
 * response a JSON-RPC result (whose result is a ClientResult) or error.
 */
public final class McpSchemaValidator {

    private static final Map<String, McpSchemaValidator> BY_VERSION = new ConcurrentHashMap<>();

    private final String version;
    private final Path schemaFile;
    private final String defsPointer;
    private final boolean draft2020;
    private final Map<String, String> clientRequestDefByMethod;
    private final Map<String, String> clientNotificationDefByMethod;
    private final Set<String> defNames;
    private final Map<String, JsonSchema> compiled = new ConcurrentHashMap<>();

    private McpSchemaValidator(String version) {
        this.version = version;
        String dir = System.getProperty("switchboard.schema.dir", "../shared/mcp-schema");
        this.schemaFile = Paths.get(dir, version, "schema.json").toAbsolutePath().normalize();
        JsonObject root = readJson(schemaFile);
        this.draft2020 = root.containsKey("$defs");
        this.defsPointer = draft2020 ? "$defs" : "definitions";
        JsonObject defs = root.getJsonObject(defsPointer);
        this.defNames = Set.copyOf(defs.keySet());
        this.clientRequestDefByMethod = methodIndex(defs, "ClientRequest");
        this.clientNotificationDefByMethod = methodIndex(defs, "ClientNotification");
    }

    /** The validator for one protocol version, e.g. {@code "2025-11-25"}. */
    public static McpSchemaValidator forVersion(String version) {
        return BY_VERSION.computeIfAbsent(version, McpSchemaValidator::new);
    }

    /** Every schema violation of the message as a client-sent message; empty when valid. */
    public List<String> problems(JsonObject message) {
        List<String> problems = new ArrayList<>();
        String text = message.toString();
        boolean hasMethod = message.containsKey("method");
        boolean hasId = message.containsKey("id");
        if (hasMethod && hasId) {
            String def = clientRequestDefByMethod.get(message.getString("method", ""));
            check(problems, "JSONRPCRequest", text);
            if (def == null) {
                problems.add("'" + message.get("method") + "' is not a client request in " + version);
            } else {
                check(problems, def, text);
            }
        } else if (hasMethod) {
            String def = clientNotificationDefByMethod.get(message.getString("method", ""));
            check(problems, "JSONRPCNotification", text);
            if (def == null) {
                problems.add("'" + message.get("method") + "' is not a client notification in " + version);
            } else {
                check(problems, def, text);
            }
        } else if (message.containsKey("error")) {
            check(problems, hasDef("JSONRPCErrorResponse") ? "JSONRPCErrorResponse" : "JSONRPCError", text);
        } else {
            check(problems, hasDef("JSONRPCResultResponse") ? "JSONRPCResultResponse" : "JSONRPCResponse", text);
            JsonValue result = message.get("result");
            check(problems, "ClientResult", result == null ? "null" : result.toString());
        }
        return problems;
    }

    /** Throws an AssertionError naming every problem, for use in tests. */
    public void assertValid(JsonObject message) {
        List<String> problems = problems(message);
        if (!problems.isEmpty()) {
            throw new AssertionError("message is not a valid " + version + " client message: " + problems + "\n" + message);
        }
    }

    private void check(List<String> problems, String def, String json) {
        JsonSchema schema = compiled.computeIfAbsent(def, d ->
                JsonSchemaFactory.getInstance(draft2020 ? SpecVersion.VersionFlag.V202012 : SpecVersion.VersionFlag.V7)
                        .getSchema(SchemaLocation.of(schemaFile.toUri() + "#/" + defsPointer + "/" + d)));
        for (String problem : schema.validate(json, InputFormat.JSON).stream().map(ValidationMessage::getMessage).toList()) {
            problems.add(def + ": " + problem);
        }
    }

    private boolean hasDef(String def) {
        return defNames.contains(def);
    }

    /** Maps each method name to the definition in the union {@code unionDef} whose {@code method} const it is. */
    private Map<String, String> methodIndex(JsonObject defs, String unionDef) {
        Map<String, String> index = new HashMap<>();
        for (JsonValue member : defs.getJsonObject(unionDef).getJsonArray("anyOf")) {
            String ref = ((JsonObject) member).getString("$ref");
            String name = ref.substring(ref.lastIndexOf('/') + 1);
            JsonObject method = defs.getJsonObject(name).getJsonObject("properties").getJsonObject("method");
            index.put(method.getString("const"), name);
        }
        return index;
    }

    private static JsonObject readJson(Path file) {
        try (Reader reader = Files.newBufferedReader(file); JsonReader json = Json.createReader(reader)) {
            return json.readObject();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read MCP schema " + file, e);
        }
    }
}
