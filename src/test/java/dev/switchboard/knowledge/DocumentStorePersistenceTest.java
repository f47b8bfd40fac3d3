package dev.switchboard.knowledge;

import dev.switchboard.persistence.DatabaseKinds;
import dev.switchboard.persistence.TestDatabase;
import dev.switchboard.platform.ApiException;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Knowledge documents in the database, on H2 and MariaDB: a file larger than MariaDB's default packet limit (16 MiB)
 * is stored in chunks and read back byte for byte, names are unique per tenant, another tenant's document is not
 * found, a replacement is a new revision with new chunks, and a deletion leaves nothing behind.
 */
class DocumentStorePersistenceTest {

    private static final TextExtractor.Extraction TEXT = new TextExtractor.Extraction("text/plain", "The quokka ledger.");

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void documentsAreStoredInChunksPerTenantAndReplacedAndDeletedWhole(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            // zeros: the bytes a text protocol escapes, so the worst case for a statement's size
            byte[] big = new byte[17 * 1024 * 1024 + 5];
            big[big.length - 1] = 7;
            long id = in(db, store -> store.create("acme", "alice", file("manual.pdf", big), TEXT)).getId();
            db.reopen();

            assertArrayEquals(big, in(db, store -> store.content("acme", id)), "read back byte for byte");
            assertEquals(18, chunks(db, id), "stored in 1 MiB chunks");
            KnowledgeDocument read = in(db, store -> store.find("acme", id));
            assertEquals("manual.pdf", read.getName());
            assertEquals(big.length, read.getSizeBytes());
            assertEquals(1, read.getRevision());
            assertEquals("alice", read.getCreatedBy());
            assertEquals(18, read.getTextChars());
            assertEquals("The quokka ledger.", in(db, store -> store.text("acme", id)));
            assertEquals(404, assertThrows(ApiException.class, () -> in(db, store -> store.find("globex", id))).status());
            assertEquals(404, assertThrows(ApiException.class, () -> in(db, store -> store.content("globex", id))).status());

            ApiException taken = assertThrows(ApiException.class, () -> in(db, store -> store.create("acme", "bob",
                    file("manual.pdf", new byte[] {1}), TEXT)));
            assertEquals("document_exists", taken.code());
            assertEquals(409, taken.status());
            long other = in(db, store -> store.create("globex", "carol", file("manual.pdf", new byte[] {1}), TEXT)).getId();

            KnowledgeDocument replaced = in(db, store -> store.replace("acme", id, "bob", file("manual-v2.pdf",
                    "v2".getBytes(StandardCharsets.UTF_8)), new TextExtractor.Extraction("application/pdf", "Version two.")));
            assertEquals(2, replaced.getRevision());
            assertEquals("manual-v2.pdf", replaced.getName());
            assertEquals("bob", replaced.getUpdatedBy());
            assertEquals(1, chunks(db, id), "the old chunks are gone");
            assertArrayEquals("v2".getBytes(StandardCharsets.UTF_8), in(db, store -> store.content("acme", id)));
            assertEquals(Map.of("acme", Map.of(id, 2), "globex", Map.of(other, 1)), in(db, DocumentStore::revisions));
            assertEquals(List.of(new DocumentStore.IndexedText(id, "manual-v2.pdf", 2, "Version two.")),
                    in(db, store -> store.texts("acme")));

            in(db, store -> {
                store.delete("acme", id);
                return null;
            });
            assertEquals(0, chunks(db, id));
            assertEquals(Map.of("globex", Map.of(other, 1)), in(db, DocumentStore::revisions));
            assertTrue(in(db, store -> store.page("acme", 10, null)).isEmpty());
            try (var c = db.jdbc(); ResultSet rs = c.createStatement().executeQuery(
                    "select count(*) from knowledge_document_texts where document_id = " + id)) {
                rs.next();
                assertEquals(0, rs.getInt(1), "the text went with the document");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void pagesAreNewestFirstBelowTheCursor(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            for (int i = 1; i <= 5; i++) {
                String name = "doc-" + i + ".txt";
                in(db, store -> store.create("acme", "alice", file(name, name.getBytes(StandardCharsets.UTF_8)), TEXT));
            }
            List<KnowledgeDocument> first = in(db, store -> store.page("acme", 3, null));
            assertEquals(List.of("doc-5.txt", "doc-4.txt", "doc-3.txt"), first.stream().map(KnowledgeDocument::getName).toList());
            List<KnowledgeDocument> rest = in(db, store -> store.page("acme", 3, first.get(2).getId()));
            assertEquals(List.of("doc-2.txt", "doc-1.txt"), rest.stream().map(KnowledgeDocument::getName).toList());
        }
    }

    private static UploadedFile file(String name, byte[] bytes) {
        return new UploadedFile(name, bytes, "0".repeat(64));
    }

    private static <T> T in(TestDatabase db, Function<DocumentStore, T> work) {
        return db.inTransaction((EntityManager em) -> {
            DocumentStore store = new DocumentStore();
            store.em = em;
            return work.apply(store);
        });
    }

    private static int chunks(TestDatabase db, long id) throws Exception {
        try (var c = db.jdbc(); ResultSet rs = c.createStatement().executeQuery(
                "select count(*) from knowledge_document_chunks where document_id = " + id)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
