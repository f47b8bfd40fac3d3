package dev.switchboard.testing;

import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.encryption.AccessPermission;
import org.apache.pdfbox.pdmodel.encryption.StandardProtectionPolicy;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.poi.poifs.crypt.EncryptionInfo;
import org.apache.poi.poifs.crypt.EncryptionMode;
import org.apache.poi.poifs.crypt.Encryptor;
import org.apache.poi.poifs.filesystem.POIFSFileSystem;
import org.apache.poi.xslf.usermodel.XMLSlideShow;
import org.apache.poi.xslf.usermodel.XSLFTextBox;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.apache.poi.xwpf.usermodel.XWPFDocument;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Office documents and PDFs made by the libraries that write them (Apache POI, PDFBox), for the knowledge tests: no
 * binary fixtures, and each test says what text its document holds. Also the hostile kinds: password-protected files
 * and a zip bomb.
 */
public final class SampleDocuments {

    private SampleDocuments() {
    }

    /** A Word document, one paragraph per entry. */
    public static byte[] docx(String... paragraphs) {
        try (XWPFDocument doc = new XWPFDocument()) {
            for (String text : paragraphs) {
                doc.createParagraph().createRun().setText(text);
            }
            return written(doc::write);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An Excel workbook with one sheet, one cell per row. */
    public static byte[] xlsx(String... rows) {
        try (XSSFWorkbook book = new XSSFWorkbook()) {
            var sheet = book.createSheet("Facts");
            for (int i = 0; i < rows.length; i++) {
                sheet.createRow(i).createCell(0).setCellValue(rows[i]);
            }
            return written(book::write);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A PowerPoint deck, one slide with a text box per entry. */
    public static byte[] pptx(String... slides) {
        try (XMLSlideShow show = new XMLSlideShow()) {
            for (String text : slides) {
                XSLFTextBox box = show.createSlide().createTextBox();
                box.setText(text);
            }
            return written(show::write);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A PDF, one page per entry, each line of it written as a line of text (Helvetica: Latin-1 only). */
    public static byte[] pdf(String... pages) {
        try (PDDocument doc = pdfDocument(List.of(pages))) {
            return written(doc::save);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A PDF that opens only with a password (AES-128). */
    public static byte[] encryptedPdf(String text) {
        try (PDDocument doc = pdfDocument(List.of(text))) {
            StandardProtectionPolicy policy = new StandardProtectionPolicy("owner-secret", "user-secret", new AccessPermission());
            policy.setEncryptionKeyLength(128);
            doc.protect(policy);
            return written(doc::save);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A Word document encrypted with a password (ECMA-376 standard encryption: quicker to make than agile, read alike). */
    public static byte[] encryptedDocx(String text) {
        byte[] plain = docx(text);
        try (POIFSFileSystem fs = new POIFSFileSystem()) {
            Encryptor encryptor = new EncryptionInfo(EncryptionMode.standard).getEncryptor();
            encryptor.confirmPassword("document-secret");
            try (OutputStream out = encryptor.getDataStream(fs)) {
                out.write(plain);
            }
            return written(fs::writeFilesystem);
        } catch (IOException | java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An OpenDocument text: the parts a reader needs (mimetype first and stored, manifest, content). */
    public static byte[] odt(String... paragraphs) {
        StringBuilder body = new StringBuilder();
        for (String text : paragraphs) {
            body.append("<text:p>").append(text.replace("&", "&amp;").replace("<", "&lt;")).append("</text:p>");
        }
        String content = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><office:document-content "
                + "xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" "
                + "xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" office:version=\"1.2\">"
                + "<office:body><office:text>" + body + "</office:text></office:body></office:document-content>";
        String manifest = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><manifest:manifest "
                + "xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\" manifest:version=\"1.2\">"
                + "<manifest:file-entry manifest:full-path=\"/\" manifest:media-type=\"application/vnd.oasis.opendocument.text\"/>"
                + "<manifest:file-entry manifest:full-path=\"content.xml\" manifest:media-type=\"text/xml\"/>"
                + "</manifest:manifest>";
        return written(out -> {
            try (ZipOutputStream zip = new ZipOutputStream(out)) {
                byte[] mimetype = "application/vnd.oasis.opendocument.text".getBytes(StandardCharsets.US_ASCII);
                ZipEntry first = new ZipEntry("mimetype");
                first.setMethod(ZipEntry.STORED);
                first.setSize(mimetype.length);
                CRC32 crc = new CRC32();
                crc.update(mimetype);
                first.setCrc(crc.getValue());
                zip.putNextEntry(first);
                zip.write(mimetype);
                zip.closeEntry();
                zip.putNextEntry(new ZipEntry("META-INF/manifest.xml"));
                zip.write(manifest.getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
                zip.putNextEntry(new ZipEntry("content.xml"));
                zip.write(content.getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        });
    }

    /**
     * A .docx whose body inflates from a few hundred kilobytes to {@code inflatedBytes}: the same paragraph over and
     * over, a zip bomb of the plainest kind.
     */
    public static byte[] zipBombDocx(long inflatedBytes) {
        byte[] template = docx("bomb");
        return written(out -> {
            try (var in = new java.util.zip.ZipInputStream(new java.io.ByteArrayInputStream(template));
                 ZipOutputStream zip = new ZipOutputStream(out)) {
                for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                    zip.putNextEntry(new ZipEntry(entry.getName()));
                    if (entry.getName().equals("word/document.xml")) {
                        writeBombBody(zip, inflatedBytes);
                    } else {
                        in.transferTo(zip);
                    }
                    zip.closeEntry();
                }
            }
        });
    }

    private static void writeBombBody(OutputStream out, long inflatedBytes) throws IOException {
        out.write(("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><w:document "
                + "xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body>")
                .getBytes(StandardCharsets.UTF_8));
        byte[] paragraph = "<w:p><w:r><w:t>again and again </w:t></w:r></w:p>".getBytes(StandardCharsets.UTF_8);
        for (long written = 0; written < inflatedBytes; written += paragraph.length) {
            out.write(paragraph);
        }
        out.write("</w:body></w:document>".getBytes(StandardCharsets.UTF_8));
    }

    private static PDDocument pdfDocument(List<String> pages) throws IOException {
        PDDocument doc = new PDDocument();
        PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
        for (String text : pages) {
            PDPage page = new PDPage();
            doc.addPage(page);
            try (PDPageContentStream content = new PDPageContentStream(doc, page)) {
                content.beginText();
                content.setFont(font, 11);
                content.setLeading(14);
                content.newLineAtOffset(50, 740);
                for (String line : text.split("\n")) {
                    content.showText(line);
                    content.newLine();
                }
                content.endText();
            }
        }
        return doc;
    }

    /** What a writer produces, as bytes. */
    private static byte[] written(Writing writing) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            writing.writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    @FunctionalInterface
    private interface Writing {
        void writeTo(OutputStream out) throws IOException;
    }
}
