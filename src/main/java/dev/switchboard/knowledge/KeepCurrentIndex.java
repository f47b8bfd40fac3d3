package dev.switchboard.knowledge;

import org.eclipse.microprofile.faulttolerance.ExecutionContext;
import org.eclipse.microprofile.faulttolerance.FallbackHandler;

import java.util.logging.Level;
import java.util.logging.Logger;

/** The knowledge index could not be rebuilt, even on a second try: say so in the log and keep answering from the old one. */
public class KeepCurrentIndex implements FallbackHandler<Boolean> {

    private static final Logger LOG = Logger.getLogger(KeepCurrentIndex.class.getName());

    @Override
    public Boolean handle(ExecutionContext context) {
        LOG.log(Level.WARNING, "Knowledge base: rebuilding the index failed twice; the previous index stays", context.getFailure());
        return false;
    }
}
