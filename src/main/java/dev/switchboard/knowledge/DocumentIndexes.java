package dev.switchboard.knowledge;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One {@link PassageIndex} per tenant over its knowledge documents, built from the texts in the database (never from
 * a file of this instance), so every instance of a cluster answers alike. This instance rebuilds a tenant's index at
 * once after changing one of its documents; the changes other instances made are noticed by {@link #syncAll()},
 * which compares the (id, revision) pairs each index was built from with the table's (one light query) and rebuilds
 * what differs. A tenant's load and build are serialised, so an older read never replaces a newer build.
 */
@ApplicationScoped
public class DocumentIndexes {

    private static final Logger LOG = Logger.getLogger(DocumentIndexes.class.getName());

    @Inject
    DocumentStore store;

    @Inject
    KnowledgeConfiguration configuration;

    private final Map<String, TenantIndex> tenants = new ConcurrentHashMap<>();

    /** A tenant's index and the revisions of the documents it was built from. */
    private static final class TenantIndex {
        final PassageIndex passages = new PassageIndex();
        Map<Long, Integer> revisions = Map.of();
    }

    /** The tenant's index, or null while it has no document this instance has seen. */
    PassageIndex of(String tenant) {
        TenantIndex index = tenants.get(tenant);
        return index == null ? null : index.passages;
    }

    /** Rebuilds the tenant's index from the database now; returns how many passages it holds. */
    int refresh(String tenant) {
        TenantIndex index = tenants.computeIfAbsent(tenant, t -> new TenantIndex());
        synchronized (index) {
            PassageSplitter splitter = new PassageSplitter(configuration.settings().passageChars());
            List<Passage> passages = new ArrayList<>();
            Map<Long, Integer> revisions = new HashMap<>();
            for (DocumentStore.IndexedText document : store.texts(tenant)) {
                splitter.split(document.name(), document.text()).forEach(p -> passages.add(p.of(document.id())));
                revisions.put(document.id(), document.revision());
            }
            try {
                index.passages.replaceAll(passages);
            } catch (IOException e) {
                throw new UncheckedIOException("indexing the knowledge documents of tenant " + tenant + " in memory failed", e);
            }
            index.revisions = Map.copyOf(revisions);
            LOG.fine(() -> "Knowledge documents of tenant " + tenant + ": " + revisions.size() + " document(s), "
                    + passages.size() + " passage(s)");
            return passages.size();
        }
    }

    /**
     * Rebuilds the index of every tenant whose documents changed since it was built, here or on another instance;
     * a failure (the database away) is logged and tried again at the next call.
     */
    void syncAll() {
        try {
            Map<String, Map<Long, Integer>> current = store.revisions();
            Set<String> names = new HashSet<>(current.keySet());
            names.addAll(tenants.keySet());
            for (String tenant : names) {
                TenantIndex index = tenants.get(tenant);
                Map<Long, Integer> wanted = current.getOrDefault(tenant, Map.of());
                if (index == null ? !wanted.isEmpty() : !index.revisions.equals(wanted)) {
                    refresh(tenant);
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Knowledge documents: comparing the indexes with the database failed; tried again "
                    + "at the next refresh", e);
        }
    }

    @PreDestroy
    void close() {
        for (TenantIndex index : tenants.values()) {
            try {
                index.passages.close();
            } catch (IOException e) {
                LOG.log(Level.FINE, "closing a knowledge document index", e);
            }
        }
    }
}
