package dev.switchboard.policy;

import jakarta.json.JsonObject;

import java.util.Objects;

/**
 * Idempotency keys of {@code tools/call}: the first call with a key claims it, and every call with the same key gets
 * that call's result instead of running the tool again, for a window after it completed; a call arriving while the
 * first still runs waits for its result. Keys are scoped by tenant and subject; a key reused for another tool or other
 * arguments is refused rather than answered with a stranger's result. {@link LocalIdempotentResults} keeps the keys
 * in this JVM; in cluster mode the {@code cluster} room's implementation keeps them in Hazelcast, so a key sent to two
 * members runs the tool once.
 */
public interface IdempotentResults {

    /** What a claim came to. */
    enum Verdict {
        /** The caller makes the call, then {@link #complete completes} or {@link #abandon abandons} its ticket. */
        RUN,
        /** The first call's result is the answer. */
        ANSWER,
        /** The key was used for another tool or other arguments. */
        CONFLICT,
        /** The first call did not finish within the wait. */
        STILL_RUNNING
    }

    /** Whose claim a key holds while its call runs: the key, what it is for, and a unique id. */
    record Ticket(String scopedKey, String tool, String inputHash, String id) {
    }

    /**
     * @param ticket the claim to complete or abandon, with {@link Verdict#RUN}
     * @param result the first call's result, with {@link Verdict#ANSWER}
     */
    record Claim(Verdict verdict, Ticket ticket, JsonObject result) {

        public static Claim run(Ticket ticket) {
            return new Claim(Verdict.RUN, Objects.requireNonNull(ticket), null);
        }

        public static Claim answer(JsonObject result) {
            return new Claim(Verdict.ANSWER, null, Objects.requireNonNull(result));
        }

        public static Claim of(Verdict verdict) {
            return new Claim(verdict, null, null);
        }
    }

    /** The key as claims are kept: a client's key means nothing outside its tenant and subject. */
    static String scope(String tenant, String subject, String key) {
        return tenant + "\u0000" + subject + "\u0000" + key;
    }

    /**
     * Claims {@code scopedKey} for a call of {@code tool} whose arguments hash to {@code inputHash}, waiting while
     * another call holds it (bounded, see {@code switchboard.gateway.idempotency.wait}).
     */
    Claim claim(String scopedKey, String tool, String inputHash);

    /** The call completed with a result: it is the answer for the key from now on, for the window. */
    void complete(Ticket ticket, JsonObject result);

    /** The call ended without a result (an error): the key is free again, the next call with it runs. */
    void abandon(Ticket ticket);

    /** False when the window or the capacity is zero: keys are then ignored. */
    boolean enabled();
}
