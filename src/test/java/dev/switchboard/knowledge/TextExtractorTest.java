package dev.switchboard.knowledge;

import dev.switchboard.platform.ApiException;
import dev.switchboard.testing.SampleDocuments;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Text extraction by Tika for each accepted format, and every refusal with its status and code. */
class TextExtractorTest {

    private static final TextExtractor EXTRACTOR = new TextExtractor(100_000);

    private static long later() {
        return System.nanoTime() + Duration.ofSeconds(30).toNanos();
    }

    static Stream<Arguments> formats() {
        return Stream.of(
                Arguments.of("notes.txt", "Plain words about the quokka ledger.\n".getBytes(StandardCharsets.UTF_8),
                        "text/plain", "quokka ledger"),
                Arguments.of("guide.md", "# Setup\n\nRun the **quokka** installer.\n".getBytes(StandardCharsets.UTF_8),
                        "text/markdown", "Run the **quokka** installer."),
                Arguments.of("中文.txt", "知识库文档：袋鼠账本的使用说明。".getBytes(StandardCharsets.UTF_8),
                        "text/plain", "袋鼠账本"),
                Arguments.of("table.csv", "name,animal\nledger,quokka\n".getBytes(StandardCharsets.UTF_8),
                        "text/csv", "quokka"),
                Arguments.of("page.html", ("<html><head><title>T</title><script>var hidden = 1;</script></head><body><h1>Quokka"
                        + "</h1><p>Ledger &amp; notes</p></body></html>").getBytes(StandardCharsets.UTF_8), "text/html", "Ledger & notes"),
                Arguments.of("report.docx", SampleDocuments.docx("First paragraph.", "The quokka ledger lists every rotation."),
                        "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "quokka ledger lists"),
                Arguments.of("sheet.xlsx", SampleDocuments.xlsx("Region", "Quokka island revenue"),
                        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "Quokka island revenue"),
                Arguments.of("deck.pptx", SampleDocuments.pptx("Quarterly quokka review"),
                        "application/vnd.openxmlformats-officedocument.presentationml.presentation", "Quarterly quokka review"),
                Arguments.of("manual.pdf", SampleDocuments.pdf("Chapter one\nThe quokka ledger is rotated weekly."),
                        "application/pdf", "quokka ledger is rotated weekly"),
                Arguments.of("letter.odt", SampleDocuments.odt("Dear quokka keepers,", "the ledger moved."),
                        "application/vnd.oasis.opendocument.text", "the ledger moved."));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void everyAcceptedFormatYieldsItsText(String name, byte[] content, String type, String expected) {
        TextExtractor.Extraction extraction = EXTRACTOR.extract(name, content, later());
        assertEquals(type, extraction.mediaType());
        assertTrue(extraction.text().contains(expected), extraction.text());
    }

    @Test
    void paragraphsStayLinesAndBlankRunsFoldToOne() {
        String text = EXTRACTOR.extract("report.docx", SampleDocuments.docx("One.", "", "", "", "Two."), later()).text();
        assertEquals("One.\n\nTwo.", text);
        assertFalse(EXTRACTOR.extract("page.html", "<html><head><script>var hidden = 1;</script></head><body>Shown</body></html>"
                .getBytes(StandardCharsets.UTF_8), later()).text().contains("hidden"), "scripts are not text");
    }

    @Test
    void anImageOrAnArchiveIsRefusedAsUnsupported() {
        byte[] png = Base64.getDecoder().decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==");
        ApiException image = refused("photo.png", png, 415, "unsupported_file_type");
        assertTrue(image.getMessage().startsWith("'photo.png' is image/png, which the knowledge base cannot read; it reads text"),
                image.getMessage());
        // the name says text, the bytes say image: the bytes win
        refused("photo.txt", png, 415, "unsupported_file_type");
        refused("bundle.zip", zip(), 415, "unsupported_file_type");
        refused("program.exe", new byte[] {'M', 'Z', (byte) 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, (byte) 0xff, (byte) 0xff}, 415,
                "unsupported_file_type");
    }

    @Test
    void aPasswordProtectedWordDocumentIsRefusedInWords() {
        ApiException docx = refused("secret.docx", SampleDocuments.encryptedDocx("hidden words"), 422, "encrypted_document");
        assertEquals("'secret.docx' is protected by a password; upload it unprotected", docx.getMessage());
    }

    @Test
    void aPasswordProtectedPdfIsRefusedInWords() {
        refused("secret.pdf", SampleDocuments.encryptedPdf("hidden words"), 422, "encrypted_document");
    }

    @Test
    void aBrokenFileIsRefusedWithTheParsersReason() {
        ApiException pdf = refused("broken.pdf", "%PDF-1.7\n1 0 obj\n<< /Type /Catalog".getBytes(StandardCharsets.US_ASCII),
                422, "extraction_failed");
        assertTrue(pdf.getMessage().startsWith("The text of 'broken.pdf' could not be read: "), pdf.getMessage());
        byte[] docx = SampleDocuments.docx("truncated");
        refused("truncated.docx", java.util.Arrays.copyOf(docx, docx.length / 2), 422, "extraction_failed");
    }

    @Test
    void aDocumentWithoutTextIsRefused() {
        ApiException blank = refused("scan.pdf", SampleDocuments.pdf(""), 422, "no_text");
        assertTrue(blank.getMessage().contains("text recognition"), blank.getMessage());
        refused("blank.txt", "  \n\n \t\n".getBytes(StandardCharsets.UTF_8), 422, "no_text");
    }

    @Test
    void theWriteLimitStopsALongTextAndAZipBomb() {
        TextExtractor small = new TextExtractor(1000);
        ApiException text = assertThrows(ApiException.class, () -> small.extract("long.txt",
                "word ".repeat(1000).getBytes(StandardCharsets.UTF_8), later()));
        assertEquals("text_too_long", text.code());
        assertEquals("The text of 'long.txt' is longer than 1000 characters (switchboard.knowledge.documents.max-text-chars); "
                + "split the document", text.getMessage());
        assertEquals(422, text.status());
        String hundredPages = "A line of a long manual about quokkas.\n".repeat(40);
        assertEquals("text_too_long", assertThrows(ApiException.class, () -> small.extract("manual.pdf",
                SampleDocuments.pdf(Stream.generate(() -> hundredPages).limit(100).toArray(String[]::new)), later())).code());

        // 60 MB of paragraphs in a file of a few hundred KB: refused (POI's inflate-ratio guard or the write limit),
        // quickly, without reading it all
        byte[] bomb = SampleDocuments.zipBombDocx(60L * 1024 * 1024);
        assertTrue(bomb.length < 1024 * 1024, "the bomb is small: " + bomb.length);
        long started = System.nanoTime();
        ApiException exploded = assertThrows(ApiException.class, () -> EXTRACTOR.extract("bomb.docx", bomb, later()));
        assertTrue(Set.of("extraction_failed", "text_too_long").contains(exploded.code()), exploded.code() + ": " + exploded.getMessage());
        assertTrue(Duration.ofNanos(System.nanoTime() - started).toSeconds() < 10, "refused within seconds");
    }

    @Test
    void anExtractionPastItsDeadlineStops() {
        ApiException late = assertThrows(ApiException.class, () -> EXTRACTOR.extract("report.docx",
                SampleDocuments.docx("on time?"), System.nanoTime() - 1));
        assertEquals("extraction_timeout", late.code());
        assertEquals(422, late.status());
    }

    private static ApiException refused(String name, byte[] content, int status, String code) {
        ApiException e = assertThrows(ApiException.class, () -> EXTRACTOR.extract(name, content, later()));
        assertEquals(code, e.code(), e.getMessage());
        assertEquals(status, e.status());
        return e;
    }

    private static byte[] zip() {
        var out = new java.io.ByteArrayOutputStream();
        try (var zip = new java.util.zip.ZipOutputStream(out)) {
            zip.putNextEntry(new java.util.zip.ZipEntry("a.bin"));
            zip.write(new byte[] {1, 2, 3});
            zip.closeEntry();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
