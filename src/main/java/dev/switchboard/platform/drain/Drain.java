package dev.switchboard.platform.drain;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * This member's drain: from its start readiness is DOWN ({@link DrainReadinessCheck}), new {@code /mcp} and chat
 * requests are refused ({@link DrainFilter}) and open streams are ended with a retry hint ({@link DrainStarted}); the
 * calls and chat runs already admitted may finish for up to {@code switchboard.drain.timeout}; then {@link Drained}
 * is fired (a cluster member leaves its cluster). It starts on {@code POST /api/drain} ({@link DrainResource}, what a
 * Kubernetes {@code preStop} hook calls) or, at the latest, when the application stops.
 */
@ApplicationScoped
public class Drain {

    /** How long a refused client is told to wait, and the SSE {@code retry} of the streams ended. */
    static final Duration RETRY = Duration.ofSeconds(2);
    private static final Logger LOG = Logger.getLogger(Drain.class.getName());

    @Inject
    @ConfigProperty(name = "switchboard.drain.timeout", defaultValue = "PT20S")
    Duration timeout;

    @Inject
    Event<DrainStarted> started;

    @Inject
    Event<Drained> drained;

    private final InFlight inFlight = new InFlight();
    private Drained outcome;

    /** A ticket for one call or chat run, or empty when this member is draining. */
    Optional<InFlight.Ticket> admit() {
        return inFlight.enter();
    }

    public boolean draining() {
        return inFlight.closed();
    }

    public long running() {
        return inFlight.running();
    }

    public long admitted() {
        return inFlight.admitted();
    }

    /** Starts the drain (once): no new work, streams ended. */
    public void begin(String reason) {
        if (inFlight.close()) {
            LOG.info(() -> "Draining (" + reason + "): readiness is DOWN, new /mcp and chat requests are refused; "
                    + inFlight.running() + " admitted call(s) may finish within " + timeout);
            started.fire(new DrainStarted(reason, RETRY));
        }
    }

    /**
     * Starts the drain if need be and waits for admitted work to finish, at most the drain timeout; the first caller
     * that gets here fires {@link Drained}, later ones (the stop hooks after a {@code preStop}) wait for it too.
     */
    public synchronized Drained finish(String reason) {
        begin(reason);
        if (outcome == null) {
            boolean idle;
            try {
                idle = inFlight.awaitIdle(timeout);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                idle = false;
            }
            outcome = new Drained(idle, inFlight.running());
            LOG.info(() -> outcome.idle() ? "Drained: every admitted call finished"
                    : "Drain timeout " + timeout + " reached with " + outcome.stillRunning() + " call(s) still running");
            drained.fire(outcome);
        }
        return outcome;
    }

    /** The application stops: the last moment to drain (Liberty has already stopped listening by then). */
    void onStop(@Observes @BeforeDestroyed(ApplicationScoped.class) Object stopping) {
        finish("the application is stopping");
    }
}
