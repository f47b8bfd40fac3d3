package dev.switchboard.it.platform;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Multipart;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one set of rules every JSON request body is read by (platform {@code BodyFields}), on every endpoint that takes
 * one: a field the endpoint does not know is {@code unknown_field}, a field of the wrong JSON type {@code invalid_type},
 * a required field left out {@code missing_field}; each a 400 {@code invalid_request_error} that names the field.
 * File uploads (multipart/form-data) follow the same rules for their parts: a part the endpoint does not know is
 * {@code unknown_field}, a text field where a file belongs {@code invalid_type}, no file {@code missing_field}
 * ({@link #UPLOADS}). {@link #everyEndpointWithABodyIsListed()} reads the OpenAPI document, so a new POST/PUT/PATCH
 * endpoint fails this test until it is listed in {@link #ENDPOINTS} or {@link #UPLOADS}.
 */
class BodyRulesIT {

    /**
     * One endpoint: a body it accepts, a required field (null: every field is optional), and a field with a value
     * of the wrong type. {@code forwardsUnknownFields}: the OpenAI-compatible chat API passes fields it does not
     * know to the model provider (temperature, top_p, ...), as OpenAI clients expect.
     */
    record Endpoint(String method, String path, JsonObject valid, String required, String typed, JsonValue wrongType,
                    boolean forwardsUnknownFields) {

        Endpoint(String method, String path, String valid, String required, String typed, JsonValue wrongType) {
            this(method, path, json(valid), required, typed, wrongType, false);
        }

        @Override
        public String toString() {
            return method + " " + path;
        }

        String key() {
            return method + " " + path;
        }
    }

    private static final JsonValue NUMBER = Json.createValue(42);
    private static final JsonValue TEXT = Json.createValue("yes");

    static final List<Endpoint> ENDPOINTS = List.of(
            new Endpoint("POST", "/api/api-keys", "{'name':'rules'}", "name", "name", NUMBER),
            new Endpoint("POST", "/api/users", "{'username':'rules-user','password':'long-enough-password'}",
                    "username", "password", NUMBER),
            new Endpoint("POST", "/api/auth/token", "{'username':'admin','password':'whatever-it-is'}",
                    "password", "username", NUMBER),
            new Endpoint("POST", "/api/assistants", "{'name':'rules'}", "name", "name", NUMBER),
            new Endpoint("PUT", "/api/assistants/{id}", "{'name':'rules'}", null, "knowledgeBaseEnabled", TEXT),
            new Endpoint("PUT", "/api/assistants/{id}/mcp-servers", "{'mcpServerIds':[]}", "mcpServerIds", "mcpServerIds", TEXT),
            new Endpoint("POST", "/api/mcp-servers", "{'name':'rules','baseUrl':'http://127.0.0.1:9/mcp'}", "name", "timeout", TEXT),
            new Endpoint("PUT", "/api/mcp-servers/{id}", "{'name':'rules'}", null, "isActive", TEXT),
            new Endpoint("POST", "/api/tenants", "{'id':'rules-tenant'}", "id", "name", NUMBER),
            new Endpoint("PUT", "/api/tenants/{id}", "{'name':'rules'}", null, "name", NUMBER),
            new Endpoint("PUT", "/api/tenants/{id}/policy", "{'tools':null}", null, "tools", TEXT),
            new Endpoint("POST", "/api/audit/search-by-input", "{'input':{}}", "input", "tenant", NUMBER),
            new Endpoint("POST", "/api/messages/{id}/tool-confirm", "{'toolCallId':'call_1','approved':true}",
                    "toolCallId", "approved", TEXT),
            new Endpoint("POST", "/api/query/execute", "{'question':'how many orders'}", "question", "limit", TEXT),
            new Endpoint("POST", "/api/query/system-status", "{'status':'maintenance'}", "status", "message", NUMBER),
            new Endpoint("POST", "/api/query/permissions", "{'role':'user','permission':'schema:read'}", "permission", "permission", NUMBER),
            new Endpoint("POST", "/api/chat/completions", json("{'messages':[{'role':'user','content':'hi'}]}"),
                    "messages", "messages", Json.createValue("hi"), true));

    /** Endpoints that take files as multipart/form-data, each reading one part named {@code file}. */
    static final List<String> UPLOADS = List.of("POST /api/knowledge/documents", "PUT /api/knowledge/documents/{id}");

    private static String admin;
    private static Map<String, String> ids;

    @BeforeAll
    static void fixtures() {
        admin = Api.adminToken();
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String assistant = String.valueOf(Api.post("/api/assistants", admin, json("{'name':'rules-" + suffix + "'}"))
                .expect(201).json().getJsonNumber("id").longValue());
        String server = String.valueOf(Api.post("/api/mcp-servers", admin,
                json("{'name':'rules-" + suffix + "','baseUrl':'http://127.0.0.1:9/mcp','isActive':false}"))
                .expect(201).json().getJsonNumber("id").longValue());
        String tenant = "rules-" + suffix;
        Api.post("/api/tenants", admin, json("{'id':'" + tenant + "'}")).expect(201);
        // a message and a document that do not exist: the body is judged before they are looked up
        ids = Map.of("/api/assistants/", assistant, "/api/mcp-servers/", server, "/api/tenants/", tenant, "/api/messages/", "999999999",
                "/api/knowledge/documents/", "999999999");
    }

    @AfterAll
    static void removeFixtures() {
        Api.delete("/api/assistants/" + ids.get("/api/assistants/"), admin).expect(204);
        Api.delete("/api/mcp-servers/" + ids.get("/api/mcp-servers/"), admin).expect(204);
        Api.delete("/api/tenants/" + ids.get("/api/tenants/"), admin).expect(204);
    }

    static List<Endpoint> endpoints() {
        return ENDPOINTS;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("endpoints")
    void everyBodyIsReadByTheSameRules(Endpoint endpoint) {
        String path = concrete(endpoint.path());

        JsonObject unknown = Json.createObjectBuilder(endpoint.valid()).add("colour", "red").build();
        if (!endpoint.forwardsUnknownFields()) {
            JsonObject error = refused(endpoint.method(), path, unknown, "unknown_field");
            assertTrue(error.getString("message").contains("'colour'"), error.toString());
        }

        JsonObject wrong = Json.createObjectBuilder(endpoint.valid()).add(endpoint.typed(), endpoint.wrongType()).build();
        JsonObject error = refused(endpoint.method(), path, wrong, "invalid_type");
        assertTrue(error.getString("message").startsWith("'" + endpoint.typed() + "' must be"), error.toString());

        if (endpoint.required() != null) {
            JsonObject missing = Json.createObjectBuilder(endpoint.valid()).remove(endpoint.required()).build();
            error = refused(endpoint.method(), path, missing, "missing_field");
            assertTrue(error.getString("message").contains("'" + endpoint.required() + "'"), error.toString());
            // null is absent too
            JsonObject nulled = Json.createObjectBuilder(endpoint.valid()).addNull(endpoint.required()).build();
            refused(endpoint.method(), path, nulled, "missing_field");
        }
    }

    static List<String> uploads() {
        return UPLOADS;
    }

    /** The parts of an upload, by the same three rules: every body here is refused, so no document is ever stored. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("uploads")
    void everyUploadsPartsAreReadByTheSameRules(String endpoint) {
        String method = endpoint.substring(0, endpoint.indexOf(' '));
        String path = concrete(endpoint.substring(endpoint.indexOf(' ') + 1));
        Multipart.Part file = Multipart.file("rules.txt", "rules".getBytes(StandardCharsets.UTF_8));

        JsonObject error = refused(Multipart.send(method, path, admin, file, Multipart.field("colour", "red")), "unknown_field");
        assertTrue(error.getString("message").contains("'colour'"), error.toString());
        error = refused(Multipart.send(method, path, admin, Multipart.field("file", "not a file")), "invalid_type");
        assertTrue(error.getString("message").startsWith("'file' must be"), error.toString());
        error = refused(Multipart.send(method, path, admin), "missing_field");
        assertTrue(error.getString("message").contains("'file'"), error.toString());
    }

    /**
     * Every operation of the OpenAPI document that takes a request body is one of {@link #ENDPOINTS} (JSON) or of
     * {@link #UPLOADS} (multipart/form-data).
     */
    @Test
    void everyEndpointWithABodyIsListed() {
        JsonObject paths = Api.get("/openapi?format=JSON", null).expect(200).json().getJsonObject("paths");
        Set<String> json = new TreeSet<>();
        Set<String> multipart = new TreeSet<>();
        paths.forEach((path, item) -> item.asJsonObject().forEach((method, operation) -> {
            if (Set.of("post", "put", "patch").contains(method) && operation.asJsonObject().containsKey("requestBody")) {
                JsonObject content = operation.asJsonObject().getJsonObject("requestBody").getJsonObject("content");
                boolean upload = content != null && content.containsKey("multipart/form-data") && !content.containsKey("application/json");
                (upload ? multipart : json).add(method.toUpperCase() + " " + path);
            }
        }));
        Set<String> listed = ENDPOINTS.stream().map(Endpoint::key).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(listed, json, "the endpoints that take a JSON body (OpenAPI) and those this test checks");
        assertEquals(new TreeSet<>(UPLOADS), multipart, "the endpoints that take files (OpenAPI) and those this test checks");
    }

    private static JsonObject refused(String method, String path, JsonObject body, String code) {
        Api.Reply reply = Api.send(method, path, admin, body);
        assertEquals(400, reply.status(), () -> method + " " + path + " " + body + " -> " + reply.text());
        return refused(reply, code);
    }

    private static JsonObject refused(Api.Reply reply, String code) {
        assertEquals(400, reply.status(), reply::text);
        JsonObject error = reply.json().getJsonObject("error");
        assertEquals(code, error.getString("code"), reply::text);
        assertEquals("invalid_request_error", error.getString("type"));
        return error;
    }

    private static String concrete(String template) {
        for (var id : ids.entrySet()) {
            if (template.startsWith(id.getKey() + "{")) {
                return template.replaceFirst("\\{[^}]+}", id.getValue());
            }
        }
        return template;
    }

    /** JSON written with single quotes, for readable bodies in this test. */
    private static JsonObject json(String text) {
        try (var reader = Json.createReader(new StringReader(text.replace('\'', '"')))) {
            return reader.readObject();
        }
    }
}
