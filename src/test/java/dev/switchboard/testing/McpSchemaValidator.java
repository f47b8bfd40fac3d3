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
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks JSON-RPC messages against the official MCP schema of a protocol version, in
 * {@code switchboard.schema.dir/<version>/schema.json}, as sent by a client or by a server: a request must be a
 * JSONRPCRequest and the sender's request definition for its method (ClientRequest or ServerRequest), a notification
 * a JSONRPCNotification and the sender's notification definition, an error a JSON-RPC error response, a result a
 * JSON-RPC result response whose result is the definition answering the request's method (e.g. ListToolsResult for
 * {@code tools/list}) when that method is known, else the sender's result union (ClientResult or ServerResult).
 */
public final class McpSchemaValidator {

    private static final Map<String, McpSchemaValidator> BY_VERSION = new ConcurrentHashMap<>();

    private final String version;
    private final Path schemaFile;
    private final String defsPointer;
    private final boolean draft2020;
    private final Map<Sender, Map<String, String>> requestDefByMethod = new EnumMap<>(Sender.class);
    private final Map<Sender, Map<String, String>> notificationDefByMethod = new EnumMap<>(Sender.class);
    private final Set<String> defNames;
    private final Map<String, JsonSchema> compiled = new ConcurrentHashMap<>();

    private McpSchemaValidator(String version) {
        this.version = version;
        String dir = System.getProperty("switchboard.schema.dir", "src/test/resources/mcp-schema");
        this.schemaFile = Paths.get(dir, version, "schema.json").toAbsolutePath().normalize();
        JsonObject root = readJson(schemaFile);
        this.draft2020 = root.containsKey("$defs");
        this.defsPointer = draft2020 ? "$defs" : "definitions";
        JsonObject defs = root.getJsonObject(defsPointer);
        this.defNames = Set.copyOf(defs.keySet());
        for (Sender sender : Sender.values()) {
            requestDefByMethod.put(sender, methodIndex(defs, sender.prefix + "Request"));
            notificationDefByMethod.put(sender, methodIndex(defs, sender.prefix + "Notification"));
        }
    }

    /** Which side of an MCP session sent a message: each side has its own requests, notifications and results. */
    public enum Sender {
        CLIENT("Client"), SERVER("Server");

        private final String prefix;

        Sender(String prefix) {
            this.prefix = prefix;
        }

        /** The side that answers this side's requests. */
        public Sender peer() {
            return this == CLIENT ? SERVER : CLIENT;
        }
    }

    /** The validator for one protocol version, e.g. {@code "2025-11-25"}. */
    public static McpSchemaValidator forVersion(String version) {
        return BY_VERSION.computeIfAbsent(version, McpSchemaValidator::new);
    }

    /** Every schema violation of the message as a client-sent message; empty when valid. */
    public List<String> problems(JsonObject message) {
        return problems(message, Sender.CLIENT, null);
    }

    /**
     * Every schema violation of a message the sender sent; empty when valid.
     *
     * @param answeredMethod for a response, the method of the request it answers (the peer's request); null when
     *                       unknown, then a result is only checked against the sender's result union
     */
    public List<String> problems(JsonObject message, Sender sender, String answeredMethod) {
        List<String> problems = new ArrayList<>();
        String text = message.toString();
        boolean hasMethod = message.containsKey("method");
        boolean hasId = message.containsKey("id");
        if (hasMethod && hasId) {
            check(problems, "JSONRPCRequest", text);
            checkMethod(problems, requestDefByMethod.get(sender), message, sender.prefix.toLowerCase() + " request", text);
        } else if (hasMethod) {
            check(problems, "JSONRPCNotification", text);
            checkMethod(problems, notificationDefByMethod.get(sender), message, sender.prefix.toLowerCase() + " notification", text);
        } else if (message.containsKey("error")) {
            check(problems, hasDef("JSONRPCErrorResponse") ? "JSONRPCErrorResponse" : "JSONRPCError", text);
        } else {
            check(problems, hasDef("JSONRPCResultResponse") ? "JSONRPCResultResponse" : "JSONRPCResponse", text);
            JsonValue result = message.get("result");
            // 2026-07-28: a result of resultType input_required is an InputRequiredResult whatever the request was
            boolean inputRequired = result instanceof JsonObject r && "input_required".equals(r.getString("resultType", null))
                    && hasDef("InputRequiredResult");
            check(problems, inputRequired ? "InputRequiredResult" : resultDef(sender, answeredMethod, problems),
                    result == null ? "null" : result.toString());
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

    private void checkMethod(List<String> problems, Map<String, String> defByMethod, JsonObject message, String kind, String text) {
        String def = defByMethod.get(message.getString("method", ""));
        if (def == null) {
            problems.add("'" + message.get("method") + "' is not a " + kind + " in " + version);
        } else {
            check(problems, def, text);
        }
    }

    /**
     * The definition of the result answering a request: by the schema's naming, {@code XRequest} is answered by
     * {@code XResult} where one exists (ListToolsRequest, CallToolRequest, CreateMessageRequest, ...), else by the
     * plain Result (ping, subscribe, setLevel: an EmptyResult).
     */
    private String resultDef(Sender sender, String answeredMethod, List<String> problems) {
        if (answeredMethod == null) {
            return sender.prefix + "Result";
        }
        String requestDef = requestDefByMethod.get(sender.peer()).get(answeredMethod);
        if (requestDef == null) {
            problems.add("a result answers '" + answeredMethod + "', which is not a " + sender.peer().prefix.toLowerCase()
                    + " request in " + version);
            return sender.prefix + "Result";
        }
        String resultDef = requestDef.substring(0, requestDef.length() - "Request".length()) + "Result";
        return hasDef(resultDef) ? resultDef : "Result";
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

    /** Maps each method name to the definition in the union {@code unionDef} whose {@code method} const it is (none without the union). */
    private Map<String, String> methodIndex(JsonObject defs, String unionDef) {
        Map<String, String> index = new HashMap<>();
        if (!defs.containsKey(unionDef)) {
            // 2026-07-28 has no ServerRequest: a server sends its client no requests
            return index;
        }
        JsonObject union = defs.getJsonObject(unionDef);
        if (!union.containsKey("anyOf")) {
            // a union of one (2026-07-28's ClientNotification is the cancellation alone)
            index.put(union.getJsonObject("properties").getJsonObject("method").getString("const"), unionDef);
            return index;
        }
        for (JsonValue member : union.getJsonArray("anyOf")) {
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
