package dev.switchboard.audit;

/**
 * Where audited calls are reported: {@link AuditLog}, or {@link #OFF} when auditing is switched off. A caller asks
 * {@link #checkWriting()} before it runs a call and {@link #record} after, and releases the call's answer only when
 * {@code record} returned: then the event is in the database.
 */
@FunctionalInterface
public interface AuditTrail {

    /** Records nothing (auditing switched off, {@code switchboard.audit.enabled=false}). */
    AuditTrail OFF = record -> { };

    /**
     * Returns once the event is durable.
     *
     * @throws AuditUnavailableException when it could not be made durable in time; the answer must then be withheld
     */
    void record(AuditRecord record);

    /**
     * Refuses a call before it runs when its event could not be recorded now (the database is not answering, the
     * queue is full), so no call runs that could not be audited.
     *
     * @throws AuditUnavailableException when events cannot be recorded now
     */
    default void checkWriting() {
    }
}
