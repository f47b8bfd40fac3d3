package dev.switchboard.knowledge;

import dev.switchboard.platform.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;
import jakarta.persistence.TypedQuery;
import jakarta.transaction.Transactional;

import java.io.ByteArrayOutputStream;
import java.sql.SQLIntegrityConstraintViolationException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The knowledge documents in the database, each call within one tenant: a document of another tenant is not found.
 * Every change is one transaction (the document, its text and its file's chunks together).
 */
@ApplicationScoped
public class DocumentStore {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    /** A document's text as the index needs it. */
    record IndexedText(long id, String name, int revision, String text) {
    }

    /** At most {@code limit} documents of the tenant, newest first, below {@code beforeId} when given. */
    public List<KnowledgeDocument> page(String tenant, int limit, Long beforeId) {
        TypedQuery<KnowledgeDocument> query = em.createQuery("select d from KnowledgeDocument d where d.tenantId = :tenant"
                        + (beforeId == null ? "" : " and d.id < :before") + " order by d.id desc", KnowledgeDocument.class)
                .setParameter("tenant", tenant);
        if (beforeId != null) {
            query.setParameter("before", beforeId);
        }
        return query.setMaxResults(limit).getResultList();
    }

    public KnowledgeDocument find(String tenant, long id) {
        return Optional.ofNullable(em.find(KnowledgeDocument.class, id))
                .filter(d -> d.getTenantId().equals(tenant))
                .orElseThrow(() -> ApiException.notFound("Knowledge document " + id + " not found"));
    }

    Optional<KnowledgeDocument> findByName(String tenant, String name) {
        return em.createQuery("select d from KnowledgeDocument d where d.tenantId = :tenant and d.name = :name",
                        KnowledgeDocument.class)
                .setParameter("tenant", tenant).setParameter("name", name)
                .getResultStream().findFirst();
    }

    @Transactional
    public KnowledgeDocument create(String tenant, String subject, UploadedFile file, TextExtractor.Extraction extraction) {
        findByName(tenant, file.name()).ifPresent(other -> {
            throw DocumentErrors.nameTaken(file.name(), other.getId());
        });
        long now = System.currentTimeMillis();
        KnowledgeDocument document = new KnowledgeDocument();
        document.setTenantId(tenant);
        document.setCreatedBy(subject);
        document.setCreatedAt(now);
        document.setRevision(1);
        describe(document, subject, now, file, extraction);
        em.persist(document);
        flushNamed(file.name());
        em.persist(new DocumentText(document.getId(), extraction.text()));
        storeChunks(document.getId(), file.bytes());
        return document;
    }

    @Transactional
    public KnowledgeDocument replace(String tenant, long id, String subject, UploadedFile file,
                                     TextExtractor.Extraction extraction) {
        KnowledgeDocument document = find(tenant, id);
        findByName(tenant, file.name()).filter(other -> !other.getId().equals(id)).ifPresent(other -> {
            throw DocumentErrors.nameTaken(file.name(), other.getId());
        });
        describe(document, subject, System.currentTimeMillis(), file, extraction);
        document.setRevision(document.getRevision() + 1);
        em.find(DocumentText.class, id).setContent(extraction.text());
        em.createQuery("delete from DocumentChunk c where c.documentId = :id").setParameter("id", id).executeUpdate();
        flushNamed(file.name());
        storeChunks(id, file.bytes());
        return document;
    }

    @Transactional
    public void delete(String tenant, long id) {
        KnowledgeDocument document = find(tenant, id);
        em.createQuery("delete from DocumentChunk c where c.documentId = :id").setParameter("id", id).executeUpdate();
        em.createQuery("delete from DocumentText t where t.documentId = :id").setParameter("id", id).executeUpdate();
        em.remove(document);
    }

    /** The file as it was uploaded. */
    public byte[] content(String tenant, long id) {
        find(tenant, id);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        em.createQuery("select c from DocumentChunk c where c.documentId = :id order by c.seq", DocumentChunk.class)
                .setParameter("id", id).getResultStream().forEach(c -> out.writeBytes(c.getChunk()));
        return out.toByteArray();
    }

    /** The text that was extracted from it and is indexed. */
    public String text(String tenant, long id) {
        find(tenant, id);
        return em.find(DocumentText.class, id).getContent();
    }

    /** The revision of every document, by tenant and id: cheap to read, so instances compare it often. */
    Map<String, Map<Long, Integer>> revisions() {
        Map<String, Map<Long, Integer>> all = new HashMap<>();
        for (Object[] row : em.createQuery("select d.tenantId, d.id, d.revision from KnowledgeDocument d", Object[].class)
                .getResultList()) {
            all.computeIfAbsent((String) row[0], t -> new HashMap<>()).put((Long) row[1], (Integer) row[2]);
        }
        return all;
    }

    /** The tenant's documents with their texts, read together so that the revisions match the texts. */
    List<IndexedText> texts(String tenant) {
        return em.createQuery("select d.id, d.name, d.revision, t.content from KnowledgeDocument d, DocumentText t "
                        + "where t.documentId = d.id and d.tenantId = :tenant order by d.id", Object[].class)
                .setParameter("tenant", tenant).getResultStream()
                .map(row -> new IndexedText((Long) row[0], (String) row[1], (Integer) row[2], (String) row[3])).toList();
    }

    private static void describe(KnowledgeDocument document, String subject, long now, UploadedFile file,
                                 TextExtractor.Extraction extraction) {
        document.setName(file.name());
        document.setMediaType(extraction.mediaType());
        document.setSizeBytes(file.bytes().length);
        document.setSha256(file.sha256());
        document.setTextChars(extraction.text().length());
        document.setUpdatedBy(subject);
        document.setUpdatedAt(now);
    }

    /** Writes the document now, so that a name another upload took in the meantime is a 409, not a failed commit. */
    private void flushNamed(String name) {
        try {
            em.flush();
        } catch (PersistenceException e) {
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof SQLIntegrityConstraintViolationException) {
                    throw ApiException.conflict("document_exists", "A document named '" + name
                            + "' was uploaded at the same time; replace it or rename the file");
                }
            }
            throw e;
        }
    }

    private void storeChunks(long documentId, byte[] bytes) {
        for (int seq = 0, from = 0; from < bytes.length; seq++, from += DocumentChunk.MAX_BYTES) {
            em.persist(new DocumentChunk(documentId, seq, Arrays.copyOfRange(bytes, from, Math.min(bytes.length, from + DocumentChunk.MAX_BYTES))));
        }
    }
}
