package dev.switchboard.chat;

import dev.switchboard.platform.ApiException;
import dev.switchboard.security.CallerIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * Approval decisions, kept in the assistant message's {@code toolCalls} (the MCP client system), so a confirm works from any
 * connection and any instance on the same database. A decision and a timeout both change a {@code pending} record
 * under a row lock, so exactly one of them wins. While a run waits it never writes the message, so nothing it
 * writes can overwrite a decision.
 */
@ApplicationScoped
public class ApprovalStore {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    /** The message's tool-call records by id, as stored now. */
    @Transactional
    public Map<String, ToolCallRecord> toolCalls(long messageId) {
        return records(em.find(ChatMessage.class, messageId));
    }

    /**
     * The run's side of the race: calls still pending when it stops waiting (timeout, or the run ends) become
     * {@code cancelled}, with {@code why} (by display name) as their response.
     */
    @Transactional
    public void cancelPending(long messageId, Set<String> ids, Function<String, JsonObject> why) {
        ChatMessage message = em.find(ChatMessage.class, messageId, LockModeType.PESSIMISTIC_WRITE);
        Map<String, ToolCallRecord> records = records(message);
        for (String id : ids) {
            ToolCallRecord record = records.get(id);
            if (record != null && record.status() == ToolCallStatus.PENDING) {
                records.put(id, record.with(ToolCallStatus.CANCELLED, why.apply(record.displayName()), true));
            }
        }
        save(message, records);
    }

    /**
     * The user's side: approve (optionally with edited arguments) or reject a pending call of a running message.
     * 404 for a message that is not the caller's or a call it does not have; 409 for a call already decided or a
     * run that has ended (a call handed back to the caller in manual mode is the caller's to run, not to confirm).
     */
    @Transactional
    public Confirmation decide(CallerIdentity caller, long messageId, String toolCallId, boolean approved, JsonObject arguments) {
        ChatMessage message = em.find(ChatMessage.class, messageId, LockModeType.PESSIMISTIC_WRITE);
        if (message == null || !"assistant".equals(message.getRole()) || !owned(caller, message)) {
            return Confirmation.refused(ApiException.notFound("Message " + messageId + " not found"));
        }
        Map<String, ToolCallRecord> records = records(message);
        ToolCallRecord record = records.get(toolCallId);
        if (record == null) {
            return Confirmation.refused(ApiException.notFound("Message " + messageId + " has no tool call '" + toolCallId + "'"));
        }
        if (record.status() != ToolCallStatus.PENDING) {
            return Confirmation.refused(ApiException.conflict("already_decided",
                    "Tool call '" + toolCallId + "' is " + record.status().json() + ", not pending"));
        }
        if (message.getFinishReason() != null) {
            return Confirmation.refused(ApiException.conflict("not_awaiting_approval", "The run of message " + messageId
                    + " has ended (" + message.getFinishReason() + "); tool call '" + toolCallId + "' is not waiting for approval"));
        }
        ToolCallRecord decided = approved
                ? new ToolCallRecord(record.id(), record.serverId(), record.serverName(), record.toolName(), record.displayName(),
                        arguments != null ? arguments : record.arguments(), ToolCallStatus.INVOKING, null, false)
                : record.with(ToolCallStatus.CANCELLED, ToolApproval.rejection(record.displayName()), true);
        records.put(toolCallId, decided);
        save(message, records);
        return Confirmation.applied(decided);
    }

    /**
     * The run waiting on this message holds (or renews) its owner lease: its member's id and an expiry. Only the lease
     * columns are written, never the tool calls, so a decision stored meanwhile is kept.
     */
    @Transactional
    public void holdLease(long messageId, String owner, long until) {
        em.createNativeQuery("UPDATE chat_messages SET run_owner = ?, lease_until = ? WHERE id = ?")
                .setParameter(1, owner).setParameter(2, until).setParameter(3, messageId).executeUpdate();
    }

    /** The run stopped waiting: its lease is dropped, unless another member's sweep took the message over. */
    @Transactional
    public void releaseLease(long messageId, String owner) {
        em.createNativeQuery("UPDATE chat_messages SET run_owner = NULL, lease_until = NULL WHERE id = ? AND run_owner = ?")
                .setParameter(1, messageId).setParameter(2, owner).executeUpdate();
    }

    /** Messages whose run's lease ran out before {@code now}: their member stopped renewing it. */
    @Transactional
    public List<Long> expiredLeases(long now) {
        List<?> ids = em.createNativeQuery("SELECT id FROM chat_messages WHERE lease_until < ?").setParameter(1, now)
                .getResultList();
        return ids.stream().map(id -> ((Number) id).longValue()).toList();
    }

    /**
     * The sweep's side: under the message's row lock (a renewal waits for it), if the lease is still expired, every
     * pending call becomes {@code cancelled} saying the member running it stopped, the message ends ({@code error})
     * and the lease is dropped. Answers the calls it cancelled (none when the run renewed its lease meanwhile).
     */
    @Transactional
    public List<ToolCallRecord> cancelOrphaned(long messageId, long now) {
        ChatMessage message = em.find(ChatMessage.class, messageId, LockModeType.PESSIMISTIC_WRITE);
        List<?> lease = em.createNativeQuery("SELECT lease_until FROM chat_messages WHERE id = ? AND lease_until < ?")
                .setParameter(1, messageId).setParameter(2, now).getResultList();
        if (message == null || lease.isEmpty()) {
            return List.of();
        }
        Map<String, ToolCallRecord> records = records(message);
        List<ToolCallRecord> cancelled = new ArrayList<>();
        records.replaceAll((id, record) -> {
            if (record.status() != ToolCallStatus.PENDING) {
                return record;
            }
            ToolCallRecord orphaned = record.with(ToolCallStatus.CANCELLED, ToolApproval.orphaned(record.displayName()), true);
            cancelled.add(orphaned);
            return orphaned;
        });
        save(message, records);
        if (message.getFinishReason() == null) {
            message.setFinishReason("error");
        }
        em.flush();
        em.createNativeQuery("UPDATE chat_messages SET run_owner = NULL, lease_until = NULL WHERE id = ?")
                .setParameter(1, messageId).executeUpdate();
        return cancelled;
    }

    /** The caller's message, for a client that reconnects; 404 for anyone else's. */
    public ChatMessage find(CallerIdentity caller, long messageId) {
        return Optional.ofNullable(em.find(ChatMessage.class, messageId)).filter(m -> owned(caller, m))
                .orElseThrow(() -> ApiException.notFound("Message " + messageId + " not found"));
    }

    private boolean owned(CallerIdentity caller, ChatMessage message) {
        Conversation conversation = em.find(Conversation.class, message.getConversationId());
        return conversation != null && conversation.getTenantId().equals(caller.tenant())
                && conversation.getUserId().equals(caller.subject());
    }

    private static Map<String, ToolCallRecord> records(ChatMessage message) {
        Map<String, ToolCallRecord> records = new LinkedHashMap<>();
        if (message != null && message.getToolCallsJson() != null) {
            try (var reader = JSON.createReader(new StringReader(message.getToolCallsJson()))) {
                for (JsonValue value : reader.readArray()) {
                    ToolCallRecord record = ToolCallRecord.fromJson(value.asJsonObject());
                    records.put(record.id(), record);
                }
            }
        }
        return records;
    }

    private static void save(ChatMessage message, Map<String, ToolCallRecord> records) {
        JsonArrayBuilder calls = Json.createArrayBuilder();
        records.values().forEach(r -> calls.add(r.toJson()));
        message.setToolCallsJson(calls.build().toString());
        message.setUpdatedAt(System.currentTimeMillis());
    }
}
