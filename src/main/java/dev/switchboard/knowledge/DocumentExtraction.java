package dev.switchboard.knowledge;

import dev.switchboard.platform.ApiException;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads uploaded documents' text on a few threads of its own ({@code switchboard.knowledge.documents.extraction-threads}),
 * each bounded in time: however many admins upload at once, extraction takes at most that many cores, and a request
 * waits for its text no longer than {@code extraction-timeout}. A parser that does not stop at the deadline (it is
 * told at every piece of text it hands on, see {@link TextExtractor}) keeps its thread until it ends, which is why the
 * threads are few; a full queue refuses the upload at once (503 {@code extraction_busy}) rather than letting
 * requests pile up.
 */
@ApplicationScoped
public class DocumentExtraction {

    @Inject
    KnowledgeConfiguration configuration;

    @Resource
    ManagedThreadFactory threadFactory;

    private DocumentSettings settings;
    private TextExtractor extractor;
    private ThreadPoolExecutor threads;

    @PostConstruct
    void start() {
        settings = configuration.documents();
        extractor = new TextExtractor(settings.maxTextChars());
        int count = settings.extractionThreads();
        threads = new ThreadPoolExecutor(count, count, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(4 * count),
                threadFactory, new ThreadPoolExecutor.AbortPolicy());
        threads.allowCoreThreadTimeOut(true);
    }

    @PreDestroy
    void stop() {
        threads.shutdownNow();
    }

    public DocumentSettings settings() {
        return settings;
    }

    /** The file's type and text, or the {@link ApiException} that says why it cannot be used. */
    TextExtractor.Extraction extract(UploadedFile file) {
        long timeoutNanos = settings.extractionTimeout().toNanos();
        long deadline = System.nanoTime() + timeoutNanos;
        Future<TextExtractor.Extraction> running;
        try {
            running = threads.submit(() -> extractor.extract(file.name(), file.bytes(), deadline));
        } catch (RejectedExecutionException e) {
            throw DocumentErrors.busy();
        }
        try {
            return running.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            running.cancel(true);
            throw DocumentErrors.timedOut(file.name());
        } catch (InterruptedException e) {
            running.cancel(true);
            Thread.currentThread().interrupt();
            throw DocumentErrors.timedOut(file.name());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ApiException refused) {
                throw refused;
            }
            throw DocumentErrors.failed(file.name(), String.valueOf(e.getCause()));
        }
    }
}
