package dev.switchboard.chat;

import jakarta.json.JsonObject;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * One run's approvals, decided through {@link ApprovalStore}. The run's own thread waits: one thread per waiting
 * run (not per call: a round's calls are awaited together), for at most the approval timeout, after which the
 * calls still pending are cancelled. It sleeps on {@link ApprovalSignals} between reads of the database, which is
 * also how a decision stored by another member reaches it (within the poll interval). Meanwhile it holds its
 * {@link OwnerLease} on the message.
 */
final class StoredApprovals implements ToolApprovals {

    private final ApprovalStore store;
    private final ApprovalSignals signals;
    private final LongSupplier messageId;
    private final Duration timeout;
    private final Duration poll;
    private final OwnerLease lease;

    /**
     * @param messageId the run's assistant message, once it is stored (see {@link StoringTurn})
     * @param lease     held on the message while the run waits, so that a sweep cancels its calls if this member dies
     */
    StoredApprovals(ApprovalStore store, ApprovalSignals signals, LongSupplier messageId, Duration timeout, Duration poll,
                    OwnerLease lease) {
        this.store = store;
        this.signals = signals;
        this.messageId = messageId;
        this.timeout = timeout;
        this.poll = poll;
        this.lease = lease;
    }

    @Override
    public Map<String, ToolApproval> await(List<ToolCallRecord> pending, Runnable stillWaiting) {
        Set<String> ids = pending.stream().map(ToolCallRecord::id).collect(Collectors.toSet());
        long messageId = this.messageId.getAsLong();
        long deadline = System.nanoTime() + timeout.toNanos();
        signals.expect(messageId);
        long leased = System.currentTimeMillis();
        store.holdLease(messageId, lease.owner(), lease.until(leased));
        try {
            while (true) {
                long now = System.currentTimeMillis();
                if (lease.due(leased, now)) {
                    store.holdLease(messageId, lease.owner(), lease.until(now));
                    leased = now;
                }
                Map<String, ToolCallRecord> stored = store.toolCalls(messageId);
                if (ids.stream().noneMatch(id -> stored.get(id).status() == ToolCallStatus.PENDING)) {
                    return decisions(stored, ids);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    store.cancelPending(messageId, ids, name -> ToolApproval.timeout(name, timeout));
                    continue;
                }
                try {
                    stillWaiting.run();
                } catch (RuntimeException gone) {
                    store.cancelPending(messageId, ids, ToolApproval::abandoned);
                    throw gone;
                }
                // never asleep past the lease's half time, whatever the poll: a lease not renewed is a dead run
                long nap = Math.min(Math.min(poll.toMillis(), lease.length().toMillis() / 2), left / 1_000_000);
                signals.await(messageId, Math.max(1, nap));
            }
        } catch (InterruptedException e) {
            // the server is stopping: the calls are cancelled, then the interrupt goes on
            store.cancelPending(messageId, ids, ToolApproval::abandoned);
            Map<String, ToolApproval> decisions = decisions(store.toolCalls(messageId), ids);
            Thread.currentThread().interrupt();
            return decisions;
        } finally {
            signals.forget(messageId);
            store.releaseLease(messageId, lease.owner());
        }
    }

    private static Map<String, ToolApproval> decisions(Map<String, ToolCallRecord> stored, Set<String> ids) {
        Map<String, ToolApproval> decisions = new HashMap<>();
        for (String id : ids) {
            ToolCallRecord record = stored.get(id);
            decisions.put(id, record.status() == ToolCallStatus.INVOKING
                    ? ToolApproval.approve(record.arguments() instanceof JsonObject args ? args : null)
                    : ToolApproval.refuse(record.response().asJsonObject()));
        }
        return decisions;
    }
}
