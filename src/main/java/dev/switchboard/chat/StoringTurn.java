package dev.switchboard.chat;

import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A run's turn (its conversation, the caller's new messages and the empty assistant message) being stored on a pooled
 * thread while the run already asks the provider, so neither the request to the provider nor the first content waits
 * for the commit. Whatever needs the stored ids (saving the assistant message, approvals, the events that name the
 * message, the end of the answer) waits for them here; a turn that could not be stored fails it with
 * {@link NotStored}, so nothing is shown as saved that is not.
 */
final class StoringTurn {

    private static final Logger LOG = Logger.getLogger(StoringTurn.class.getName());

    /** The turn could not be stored; logged at SEVERE with this incident id when it happened. */
    static final class NotStored extends RuntimeException {

        private final String incident;

        NotStored(String incident, Throwable cause) {
            super("The conversation could not be stored (incident " + incident + ")", cause);
            this.incident = incident;
        }

        String incident() {
            return incident;
        }
    }

    private final CompletableFuture<ConversationStore.StoredRun> stored;

    private StoringTurn(CompletableFuture<ConversationStore.StoredRun> stored) {
        this.stored = stored;
    }

    /**
     * Starts storing on {@code executor}.
     *
     * @param completionId names the run in the log when storing fails
     */
    static StoringTurn start(Supplier<ConversationStore.StoredRun> storing, Executor executor, String completionId) {
        return new StoringTurn(CompletableFuture.supplyAsync(() -> {
            try {
                return storing.get();
            } catch (RuntimeException e) {
                String incident = UUID.randomUUID().toString();
                LOG.log(Level.SEVERE, "Could not store chat run " + completionId + ", incident " + incident, e);
                throw new NotStored(incident, e);
            }
        }, executor));
    }

    /** The stored ids, once the commit is done. */
    ConversationStore.StoredRun get() {
        try {
            return stored.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof NotStored notStored) {
                throw notStored;
            }
            throw e;
        }
    }

    long messageId() {
        return get().messageId();
    }
}
