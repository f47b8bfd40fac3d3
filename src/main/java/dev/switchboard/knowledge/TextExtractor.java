package dev.switchboard.knowledge;

import dev.switchboard.platform.ApiException;
import org.apache.tika.config.TikaConfig;
import org.apache.tika.detect.Detector;
import org.apache.tika.exception.EncryptedDocumentException;
import org.apache.tika.exception.TikaException;
import org.apache.tika.exception.WriteLimitReachedException;
import org.apache.tika.extractor.EmbeddedDocumentExtractor;
import org.apache.tika.io.TikaInputStream;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.metadata.TikaCoreProperties;
import org.apache.tika.mime.MediaType;
import org.apache.tika.mime.MediaTypeRegistry;
import org.apache.tika.parser.AutoDetectParser;
import org.apache.tika.parser.ParseContext;
import org.apache.tika.parser.microsoft.OfficeParserConfig;
import org.apache.tika.parser.pdf.PDFParserConfig;
import org.apache.tika.sax.BodyContentHandler;
import org.apache.tika.sax.ContentHandlerDecorator;
import org.apache.tika.sax.WriteOutContentHandler;
import org.xml.sax.Attributes;
import org.xml.sax.ContentHandler;
import org.xml.sax.SAXException;

import java.io.IOException;
import java.io.InputStream;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The text of an uploaded document, by Apache Tika: the type is detected from the bytes and the file name, checked
 * against {@link #OFFICE_TYPES} and plain text, then parsed with limits that keep a hostile file from taking the
 * server down:
 * <ul>
 * <li>a write limit ({@code maxTextChars}): parsing stops as soon as the text is longer, so a zip bomb or an endless
 * PDF ends there (and Tika's own zip-bomb guard on the output-to-input ratio stays on);</li>
 * <li>a deadline, checked at every piece of text and every element the parser hands on, so a document that takes too
 * long stops within one parser step of it ({@link DocumentExtraction} also stops waiting then);</li>
 * <li>no embedded documents (attachments inside a file, images in a PDF, no OCR), and PDFBox's scratch memory
 * capped at {@link #PDF_MEMORY_BYTES}; POI's own guard refuses OOXML entries that inflate more than 100 times.</li>
 * </ul>
 * Thread-safe: one instance serves every extraction.
 */
final class TextExtractor {

    /** The formats besides plain text (and its kinds: Markdown, CSV, source code) that are accepted, by Tika's names. */
    static final Set<String> OFFICE_TYPES = Set.of(
            "application/pdf",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "application/vnd.openxmlformats-officedocument.presentationml.presentation",
            "application/msword",
            "application/vnd.ms-excel",
            "application/vnd.ms-powerpoint",
            "application/vnd.oasis.opendocument.text",
            "application/vnd.oasis.opendocument.spreadsheet",
            "application/vnd.oasis.opendocument.presentation",
            "application/rtf",
            "text/html",
            "application/xhtml+xml");

    /** What a refusal names, in the order a user thinks of them. */
    static final String ACCEPTED = "text (.txt, .md, .csv, source code), PDF, Word (.docx, .doc), Excel (.xlsx, .xls), "
            + "PowerPoint (.pptx, .ppt), OpenDocument (.odt, .ods, .odp), RTF and HTML";

    /** PDFBox's memory for one document beyond the file itself (decoded streams, fonts); more fails the extraction. */
    static final long PDF_MEMORY_BYTES = 256L * 1024 * 1024;

    /** What Tika calls a password-protected .docx, .xlsx or .pptx (an OLE2 container around the encrypted package). */
    private static final MediaType OOXML_PROTECTED = MediaType.application("x-tika-ooxml-protected");

    private static final Pattern BLANK_RUNS = Pattern.compile("\n[ \t\u00a0]*(?:\n[ \t\u00a0]*){2,}");

    private final AutoDetectParser parser;
    private final Detector detector;
    private final MediaTypeRegistry types;
    private final int maxTextChars;

    TextExtractor(int maxTextChars) {
        this.maxTextChars = maxTextChars;
        try {
            // the parsers and type definitions of the WAR's own jars, whatever the thread's context class loader
            TikaConfig config = new TikaConfig(TextExtractor.class.getClassLoader());
            parser = new AutoDetectParser(config);
            detector = config.getDetector();
            types = config.getMediaTypeRegistry();
        } catch (IOException | TikaException e) {
            throw new IllegalStateException("Apache Tika cannot load its parsers", e);
        }
    }

    /**
     * The document's type and text (Markdown headings and paragraphs kept as lines, runs of blank lines folded to
     * one), or an {@link ApiException} saying why not ({@link DocumentErrors}).
     *
     * @param fileName  the name it was uploaded as (its ending helps detection)
     * @param content   the file, not empty
     * @param deadline  {@link System#nanoTime()} after which the extraction stops
     */
    Extraction extract(String fileName, byte[] content, long deadline) {
        MediaType type = detect(fileName, content);
        if (OOXML_PROTECTED.equals(type)) {
            throw DocumentErrors.encrypted(fileName);
        }
        if (!accepts(type)) {
            throw DocumentErrors.unsupported(fileName, type.toString());
        }
        Metadata metadata = new Metadata();
        metadata.set(TikaCoreProperties.RESOURCE_NAME_KEY, fileName);
        WriteOutContentHandler text = new WriteOutContentHandler(maxTextChars);
        Deadline bounded = new Deadline(new BodyContentHandler(text), deadline);
        try (InputStream in = TikaInputStream.get(content)) {
            parser.parse(in, bounded, metadata, context());
        } catch (IOException | SAXException | TikaException | RuntimeException e) {
            throw refusal(fileName, e);
        }
        String extracted = BLANK_RUNS.matcher(text.toString().replace("\r\n", "\n").replace('\r', '\n')).replaceAll("\n\n").strip();
        if (extracted.isEmpty()) {
            throw DocumentErrors.noText(fileName);
        }
        return new Extraction(type.getBaseType().toString(), extracted);
    }

    private MediaType detect(String fileName, byte[] content) {
        Metadata metadata = new Metadata();
        metadata.set(TikaCoreProperties.RESOURCE_NAME_KEY, fileName);
        try (TikaInputStream in = TikaInputStream.get(content)) {
            return types.normalize(detector.detect(in, metadata)).getBaseType();
        } catch (IOException e) {
            throw DocumentErrors.failed(fileName, "its type could not be detected: " + e.getMessage());
        }
    }

    /** Plain text and everything Tika knows as a kind of it (Markdown, CSV, source code), and the office formats. */
    boolean accepts(MediaType type) {
        return OFFICE_TYPES.contains(type.toString()) || types.isInstanceOf(type, MediaType.TEXT_PLAIN);
    }

    private static ParseContext context() {
        ParseContext context = new ParseContext();
        context.set(EmbeddedDocumentExtractor.class, NoEmbeddedDocuments.INSTANCE);
        PDFParserConfig pdf = new PDFParserConfig();
        pdf.setOcrStrategy(PDFParserConfig.OCR_STRATEGY.NO_OCR);
        pdf.setExtractInlineImages(false);
        pdf.setExtractAnnotationText(true);
        pdf.setMaxMainMemoryBytes(PDF_MEMORY_BYTES);
        context.set(PDFParserConfig.class, pdf);
        OfficeParserConfig office = new OfficeParserConfig();
        // streaming (SAX) readers for .docx and .pptx: a large document is not held in memory as a tree
        office.setUseSAXDocxExtractor(true);
        office.setUseSAXPptxExtractor(true);
        office.setExtractMacros(false);
        context.set(OfficeParserConfig.class, office);
        return context;
    }

    private ApiException refusal(String fileName, Exception e) {
        if (WriteLimitReachedException.isWriteLimitReached(e)) {
            return DocumentErrors.textTooLong(fileName, maxTextChars);
        }
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof DeadlinePassed) {
                return DocumentErrors.timedOut(fileName);
            }
            if (cause instanceof EncryptedDocumentException || cause instanceof org.apache.poi.EncryptedDocumentException) {
                return DocumentErrors.encrypted(fileName);
            }
        }
        return DocumentErrors.failed(fileName, reason(e));
    }

    /** The innermost message, which names what is wrong with the file ("Zip bomb detected!", "Missing root object"). */
    private static String reason(Throwable e) {
        String message = null;
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null && !cause.getMessage().isBlank()) {
                message = cause.getMessage();
            }
        }
        String said = message == null ? e.getClass().getSimpleName() : message.lines().findFirst().orElse("").strip();
        return said.length() > 300 ? said.substring(0, 300) + "..." : said;
    }

    /** The detected type and the text of one document. */
    record Extraction(String mediaType, String text) {
    }

    /** Stops the parse at the deadline: every parser hands its text and structure through here. */
    private static final class Deadline extends ContentHandlerDecorator {

        private final long deadline;

        Deadline(ContentHandler handler, long deadline) {
            super(handler);
            this.deadline = deadline;
        }

        private void check() throws SAXException {
            if (System.nanoTime() - deadline > 0 || Thread.currentThread().isInterrupted()) {
                throw new DeadlinePassed();
            }
        }

        @Override
        public void startElement(String uri, String localName, String name, Attributes atts) throws SAXException {
            check();
            super.startElement(uri, localName, name, atts);
        }

        @Override
        public void endElement(String uri, String localName, String name) throws SAXException {
            check();
            super.endElement(uri, localName, name);
        }

        @Override
        public void characters(char[] ch, int start, int length) throws SAXException {
            check();
            super.characters(ch, start, length);
        }

        @Override
        public void ignorableWhitespace(char[] ch, int start, int length) throws SAXException {
            check();
            super.ignorableWhitespace(ch, start, length);
        }
    }

    /** Thrown into the parser when the deadline passed. */
    static final class DeadlinePassed extends SAXException {

        DeadlinePassed() {
            super("the extraction took longer than allowed");
        }
    }

    /** Attachments, embedded objects and images inside a document are left out: each is a document of its own. */
    private enum NoEmbeddedDocuments implements EmbeddedDocumentExtractor {
        INSTANCE;

        @Override
        public boolean shouldParseEmbedded(Metadata metadata) {
            return false;
        }

        @Override
        public void parseEmbedded(InputStream stream, ContentHandler handler, Metadata metadata, boolean outputHtml) {
            // never asked: shouldParseEmbedded says no
        }
    }
}
