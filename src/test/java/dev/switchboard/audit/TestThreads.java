package dev.switchboard.audit;

import jakarta.enterprise.concurrent.ManagedThreadFactory;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;

/** Plain threads where the server gives managed ones (the audit writer's thread). */
final class TestThreads {

    static final ManagedThreadFactory FACTORY = new ManagedThreadFactory() {
        @Override
        public Thread newThread(Runnable r) {
            return new Thread(r);
        }

        @Override
        public ForkJoinWorkerThread newThread(ForkJoinPool pool) {
            throw new UnsupportedOperationException();
        }
    };

    private TestThreads() {
    }
}
