package dev.switchboard.knowledge;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.Retry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The RAG retriever over a tenant's knowledge base, the knowledge folder's files (shared by every tenant) and the
 * tenant's own documents ({@link DocumentIndexes}) searched as one: the one place other rooms ask for passages. Owns
 * the folder's {@link KnowledgeIndex}; {@link KnowledgeRefresher} keeps both in step with their sources.
 */
@ApplicationScoped
public class KnowledgeRetriever {

    /** RAG: at most 3 documents... */
    public static final int DEFAULT_LIMIT = 3;
    /** ...each with a relevance of at least 0.1. */
    public static final double DEFAULT_MIN_SCORE = 0.1;
    /** Longer questions are searched by their beginning: the rest adds terms, not precision. */
    public static final int MAX_QUESTION_CHARS = 2000;

    private static final Logger LOG = Logger.getLogger(KnowledgeRetriever.class.getName());

    @Inject
    KnowledgeConfiguration configuration;

    @Inject
    DocumentIndexes documents;

    private KnowledgeIndex index;

    /** A tenant's document index, or null when it has none. */
    private Function<String, PassageIndex> tenantDocuments;

    /** For CDI. */
    protected KnowledgeRetriever() {
    }

    /** Over indexes of the caller's (tests). */
    KnowledgeRetriever(KnowledgeIndex index, Function<String, PassageIndex> tenantDocuments) {
        this.index = index;
        this.tenantDocuments = tenantDocuments;
    }

    @PostConstruct
    void open() {
        index = new KnowledgeIndex(configuration.settings());
        tenantDocuments = documents::of;
    }

    @PreDestroy
    void close() {
        try {
            index.close();
        } catch (IOException e) {
            LOG.log(Level.FINE, "closing the knowledge index", e);
        }
    }

    /**
     * The passages of the tenant's knowledge base that answer {@code question} best, best first: at most
     * {@code limit}, each scoring at least {@code minScore} on the normalised [0, 1] scale (see {@link KnowledgeQuery}).
     * Another tenant's documents are never searched.
     *
     * @throws IllegalArgumentException for a blank question, a limit below 1 or a minimum score outside [0, 1]
     */
    public List<KnowledgeHit> search(String tenant, String question, int limit, double minScore) {
        if (question == null || question.isBlank()) {
            throw new IllegalArgumentException("question is blank");
        }
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1");
        }
        if (!(minScore >= 0 && minScore <= 1)) {
            throw new IllegalArgumentException("minScore must be between 0 and 1");
        }
        String searched = question.length() > MAX_QUESTION_CHARS ? question.substring(0, MAX_QUESTION_CHARS) : question;
        PassageIndex own = tenantDocuments.apply(tenant);
        try {
            return PassageIndex.search(own == null ? List.of(index.passages()) : List.of(index.passages(), own), searched,
                    limit, minScore);
        } catch (IOException e) {
            throw new UncheckedIOException("searching the in-memory knowledge index failed", e);
        }
    }

    /**
     * The knowledge-base context for a chat run of a caller of {@code tenant}, as RAG injects it: the content of a
     * message with role {@code user} holding the best passages of the tenant's knowledge base for {@code question} ({@value #DEFAULT_LIMIT} at most, each scoring at
     * least {@value #DEFAULT_MIN_SCORE}), each with its relevance and its source (path relative to the knowledge
     * folder, or the document's name, and line range), framed in the RAG feature's wording.
     * <p>
     * Contract for the chat loop: call it once per run, before the first LLM call, only when the assistant has
     * {@code knowledgeBaseEnabled}; pass the text of the request's last {@code user} message. When a value is
     * returned, insert it into the run's messages as a {@code user} message directly before that last user message
     * (after any system messages) before the first LLM call; later rounds keep it like any other message. It is
     * retrieval output, not something the user wrote, so it is not stored as a message of the conversation. Empty means
     * inject nothing: the question is null or blank, or no passage reaches the minimum score (including an empty or
     * missing knowledge folder and no documents).
     * <p>
     * Never throws: a failing search is logged and answers empty, so the knowledge base can never fail a chat.
     * Thread-safe, does no I/O on the folder or the database (the indexes are in memory) and takes milliseconds; questions longer
     * than {@value #MAX_QUESTION_CHARS} characters are searched by their beginning.
     */
    public Optional<String> contextMessage(String tenant, String question) {
        if (question == null || question.isBlank()) {
            return Optional.empty();
        }
        try {
            List<KnowledgeHit> hits = search(tenant, question, DEFAULT_LIMIT, DEFAULT_MIN_SCORE);
            return hits.isEmpty() ? Optional.empty() : Optional.of(KnowledgeContext.message(question, hits));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Knowledge base search failed; the run goes on without context", e);
            return Optional.empty();
        }
    }

    /**
     * Rebuilds the index if the folder changed. Under MicroProfile Fault Tolerance: a rebuild that failed (a file
     * half-written, a share that blinked) is tried once more after 2 s, and when that fails too the previous index stays
     * ({@link #keepCurrentIndex()}). No {@code @Timeout}: interrupting Lucene while it writes closes the index's files.
     * Settings: {@code dev.switchboard.knowledge.KnowledgeRetriever/refreshIfChanged/Retry/maxRetries}, {@code .../delay}.
     */
    @Retry(maxRetries = 1, delay = 2, delayUnit = ChronoUnit.SECONDS)
    @Fallback(fallbackMethod = "keepCurrentIndex")
    public void refreshIfChanged() {
        try {
            index.refreshIfChanged();
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "Knowledge base: rebuilding from " + index.settings().folder() + " failed", e);
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
    }

    /** The rebuild failed on its second try too: the previous index keeps answering. */
    void keepCurrentIndex() {
        LOG.warning(() -> "Knowledge base: the previous index stays until the next change in " + index.settings().folder());
    }

    /** Rebuilds the index from the folder now. */
    public IndexStats reindex() {
        try {
            return index.rebuild();
        } catch (IOException e) {
            throw new UncheckedIOException("rebuilding the knowledge index failed", e);
        }
    }

    public KnowledgeSettings settings() {
        return index.settings();
    }
}
