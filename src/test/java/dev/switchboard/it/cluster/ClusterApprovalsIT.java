package dev.switchboard.it.cluster;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.ScriptedLlm;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.llm.ToolCall;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import static dev.switchboard.it.cluster.ClusterMembers.A;
import static dev.switchboard.it.cluster.ClusterMembers.B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A chat run on member A waits for the approval of a tool call; the user confirms it through member B (the request
 * any load balancer could have sent there). The decision goes into the database, A's run reads it there (within the
 * approval poll interval) and runs the tool. While it waits, A holds the run's owner lease on the message (so a sweep
 * would cancel it if A died, {@code ApprovalStoreTest}); once it stops waiting the lease is dropped.
 */
class ClusterApprovalsIT {

    @RegisterExtension
    static final ClusterMembers cluster = new ClusterMembers();
    @RegisterExtension
    static final ScriptedLlm provider = new ScriptedLlm();

    @Test
    void anApprovalStartedOnAIsConfirmedOnB() throws Exception {
        String admin = A.login("admin", Api.ADMIN_PASSWORD);
        String suffix = UUID.randomUUID().toString().substring(0, 6);
        String user = "approver-" + suffix;
        A.post("/api/users", admin, Json.createObjectBuilder().add("username", user).add("password", "password-" + user)
                .add("role", "user").add("tenant", "default").build()).expect(201);
        String token = B.login(user, "password-" + user);
        Path calls = Files.createTempFile("approvals-cluster", ".calls");
        String server = "approve" + suffix;
        long serverId = A.post("/api/mcp-servers", admin, Json.createObjectBuilder().add("name", server).add("command", "node")
                .add("scope", "shared").add("args", Json.createArrayBuilder().add(policyServer()).add(calls.toString()))
                .build()).expect(201).json().getJsonNumber("id").longValue();
        long assistant = A.post("/api/assistants", token, Json.createObjectBuilder().add("name", "approvals " + suffix)
                .add("systemPrompt", "You are careful.").add("mcpServerIds", Json.createArrayBuilder().add(serverId)).build())
                .expect(201).json().getJsonNumber("id").longValue();

        String callToken = "approved-on-b-" + suffix;
        Script script = provider.script(Reply.tools(new ToolCall("c1", "mcp__" + server + "__count",
                "{\"token\":\"" + callToken + "\"}")), Reply.text("counted after approval"));
        JsonObject ask = Json.createObjectBuilder().add("assistant_id", assistant).add("stream", true)
                .add("session_id", "cluster-approve-" + suffix)
                .add("messages", Json.createArrayBuilder().add(Json.createObjectBuilder().add("role", "user")
                        .add("content", "count once " + script.key()))).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(A.base() + "/api/chat/completions"))
                .timeout(Duration.ofSeconds(90)).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(ask.toString())).build();
        HttpResponse<Stream<String>> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .send(request, HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, response.statusCode());

        List<JsonObject> chunks = new ArrayList<>();
        List<String> whileWaiting = new ArrayList<>();
        response.body().filter(line -> line.startsWith("data: {")).map(line -> json(line.substring(6))).forEach(chunk -> {
            chunks.add(chunk);
            if ("tool_call_updated".equals(chunk.getString("type", ""))
                    && "pending".equals(chunk.getJsonObject("toolCall").getString("status"))) {
                long message = chunk.getJsonNumber("messageId").longValue();
                whileWaiting.add("lease:" + (awaitLease(message) != null));
                JsonObject decided = B.post("/api/messages/" + message + "/tool-confirm", token, Json.createObjectBuilder()
                        .add("toolCallId", "c1").add("approved", true).build()).expect(200).json();
                whileWaiting.add("confirmed on B:" + decided.getString("status"));
            }
        });

        assertEquals(List.of("lease:true", "confirmed on B:invoking"), whileWaiting,
                "A's run held its lease while it waited, and B took the confirmation");
        assertEquals(List.of(callToken), Files.readAllLines(calls), "the tool ran once, on A, after the approval given on B");
        assertEquals("counted after approval", String.join("", chunks.stream().filter(c -> "content".equals(c.getString("type", "")))
                .map(c -> c.getJsonObject("delta").getString("content", "")).toList()));
        long message = chunks.get(chunks.size() - 1).getJsonNumber("message_id").longValue();
        JsonObject stored = B.get("/api/messages/" + message, token).expect(200).json();
        assertEquals("finished", stored.getString("state"));
        assertEquals("done", stored.getJsonArray("toolCalls").getJsonObject(0).getString("status"));
        assertNull(lease(message), "the lease was dropped once the run stopped waiting");
    }

    private static String policyServer() throws Exception {
        Path nodeDir = Paths.get(System.getProperty("switchboard.node.dir", "target/node")).toAbsolutePath();
        Path script = nodeDir.resolve("policy-server.mjs");
        Files.copy(Paths.get("src/test/node/policy-server.mjs"), script, StandardCopyOption.REPLACE_EXISTING);
        return script.toString();
    }

    /** The message's owner lease as the cluster's database holds it: its member, or null. */
    /**
     * The lease of a run that waits, once it is written: the run announces the pending call, then takes its lease as it
     * starts waiting, so the announcement may come first (a few milliseconds, more on a busy machine).
     */
    private static String awaitLease(long messageId) {
        for (int i = 0; i < 50; i++) {
            String owner = lease(messageId);
            if (owner != null) {
                return owner;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

    private static String lease(long messageId) {
        String db = System.getProperty("it.cluster.db", "switchboard_cluster_18780");
        try (Connection c = DriverManager.getConnection(System.getProperty("it.mariadb.url", "jdbc:mysql://127.0.0.1:3306/") + db, "root", "");
             PreparedStatement query = c.prepareStatement("SELECT run_owner, lease_until FROM chat_messages WHERE id = ?")) {
            query.setLong(1, messageId);
            try (ResultSet rows = query.executeQuery()) {
                assertTrue(rows.next(), "message " + messageId);
                String owner = rows.getString(1);
                if (owner != null) {
                    assertNotNull(rows.getObject(2), "a lease has an expiry");
                }
                return owner;
            }
        } catch (Exception e) {
            throw new AssertionError("reading the lease of message " + messageId + ": " + e, e);
        }
    }

    private static JsonObject json(String data) {
        try (var reader = Json.createReader(new StringReader(data))) {
            return reader.readObject();
        }
    }
}
