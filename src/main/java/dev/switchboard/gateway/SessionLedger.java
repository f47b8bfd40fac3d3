package dev.switchboard.gateway;

import jakarta.json.JsonObject;

import java.time.Instant;
import java.util.Optional;

/**
 * Where client sessions are recorded beyond the process: a session that was open when the process stopped can be
 * taken up again, one that ended stays ended.
 */
public interface SessionLedger {

    /** Why a session ended. A shutdown is not an end: the session is taken up again after the restart. */
    enum EndReason { DELETED, CLOSED, IDLE, SHUTDOWN }

    /** What a recorded, still open session needs to be served again. */
    record Resumable(String subject, String endpoint, String protocolVersion, JsonObject clientCapabilities, Instant lastSeenAt) {
    }

    /** The session was used at {@code at} (called at most every {@link GatewaySessions#seenInterval} per session). */
    void seen(GatewaySession session, Instant at);

    void ended(GatewaySession session, EndReason reason);

    /**
     * Ends the session for being idle, but only if no use of it was recorded at or after {@code idleSince}: another
     * instance may be serving it (its use recorded there), and this instance's copy is then merely stale. One
     * conditional write, so a use recorded on another instance between our look and our write keeps the session.
     *
     * @return whether the session ended; false when a later use was recorded (or it had ended already)
     */
    boolean endedIdle(GatewaySession session, Instant idleSince);

    /** A recorded session with this id that has not ended and can be served again (not a socket's), if any. */
    Optional<Resumable> resumable(String sessionId);

    /** Records nothing: sessions live as long as the process. */
    SessionLedger NONE = new SessionLedger() {
        @Override
        public void seen(GatewaySession session, Instant at) {
        }

        @Override
        public void ended(GatewaySession session, EndReason reason) {
        }

        @Override
        public boolean endedIdle(GatewaySession session, Instant idleSince) {
            return true;
        }

        @Override
        public Optional<Resumable> resumable(String sessionId) {
            return Optional.empty();
        }
    };
}
