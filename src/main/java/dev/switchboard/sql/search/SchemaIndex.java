package dev.switchboard.sql.search;

import dev.switchboard.sql.Permissions;
import dev.switchboard.sql.catalog.ColumnInfo;
import dev.switchboard.sql.catalog.Relationship;
import dev.switchboard.sql.catalog.TableInfo;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.queryparser.classic.MultiFieldQueryParser;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A Lucene index over one snapshot of the catalog: a document per table (its name, comment, and as context its
 * columns and related tables) and per column (its name, comment, and as context its table). Ranking is BM25 over
 * names (weighted highest), comments and context; a column that links two tables the phrase matched (the
 * {@code user_id} of {@code orders} for "用户订单") is lifted, because that is the column a join needs; so is a
 * table related to a matched table that covers another word of the phrase ({@code users} and {@code orders}
 * together answer "用户订单", {@code order_items} only repeats "订单").
 */
final class SchemaIndex {

    private static final String KIND = "kind";
    private static final String TABLE = "table";
    private static final String COLUMN = "column";
    private static final Map<String, Float> BOOSTS = Map.of(
            SchemaAnalyzers.NAME, 3f, SchemaAnalyzers.COMMENT, 2f, SchemaAnalyzers.CONTEXT, 0.5f);
    /** How much a joining column gains: enough to pass columns that merely share a word with the phrase. */
    private static final double JOIN_LIFT = 1.5;

    private final Map<String, TableInfo> tables;
    private final Analyzer analyzer = SchemaAnalyzers.create();
    private final IndexSearcher searcher;
    /** Per table, the words of its own name and comment: what part of a phrase the table itself stands for. */
    private final Map<String, Set<String>> ownWords = new HashMap<>();
    /**
     * Per document id, its table and column (null for a table's document), read from the stored fields once: reading
     * them per hit held a quarter of the server's CPU in the NL->SQL benchmark.
     */
    private final String[] tableOf;
    private final String[] columnOf;

    SchemaIndex(Map<String, TableInfo> tables) {
        this.tables = tables;
        ByteBuffersDirectory directory = new ByteBuffersDirectory();
        try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(analyzer))) {
            for (TableInfo table : tables.values()) {
                Set<String> words = new HashSet<>(words(SchemaAnalyzers.NAME, NameWords.of(table.name())));
                words.addAll(words(SchemaAnalyzers.COMMENT, table.comment()));
                ownWords.put(table.name(), words);
                writer.addDocument(tableDocument(table));
                for (ColumnInfo column : table.columns()) {
                    writer.addDocument(columnDocument(table, column));
                }
            }
            writer.commit();
            searcher = new IndexSearcher(DirectoryReader.open(directory));
            int documents = searcher.getIndexReader().maxDoc();
            tableOf = new String[documents];
            columnOf = new String[documents];
            var stored = searcher.storedFields();
            for (int doc = 0; doc < documents; doc++) {
                Document document = stored.document(doc);
                tableOf[doc] = document.get(TABLE);
                columnOf[doc] = document.get(COLUMN);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The tables the map was built from: the caller rebuilds when the catalog hands out another snapshot. */
    Map<String, TableInfo> tables() {
        return tables;
    }

    SchemaHits search(String phrase, int limit, Permissions permissions) {
        Query text = parse(phrase);
        if (text == null) {
            return new SchemaHits(List.of(), List.of());
        }
        Map<String, Double> tableScores = new HashMap<>();
        for (Scored hit : run(text, TABLE, permissions)) {
            tableScores.put(hit.table, hit.score);
        }
        Set<String> words = phraseWords(phrase);
        Set<String> joining = joiningColumns(tableScores.keySet(), words);
        liftComplementaryTables(tableScores, words);
        List<Scored> columns = run(text, COLUMN, permissions);
        columns.forEach(c -> c.score *= joining.contains(c.table + "." + c.column) ? JOIN_LIFT : 1);
        double top = columns.stream().mapToDouble(c -> c.score).max().orElse(0);
        top = Math.max(top, tableScores.values().stream().mapToDouble(Double::doubleValue).max().orElse(0));
        double max = top;
        List<SchemaHits.TableHit> tableHits = tableScores.entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(limit)
                .map(e -> new SchemaHits.TableHit(e.getKey(), tables.get(e.getKey()).comment(), relevance(e.getValue(), max)))
                .toList();
        List<SchemaHits.ColumnHit> columnHits = columns.stream()
                .sorted(Comparator.comparingDouble((Scored s) -> -s.score).thenComparing(s -> s.table + "." + s.column))
                .limit(limit)
                .map(s -> new SchemaHits.ColumnHit(s.table, s.column, commentOf(s.table, s.column), relevance(s.score, max)))
                .toList();
        return new SchemaHits(tableHits, columnHits);
    }

    private static final class Scored {
        final String table;
        final String column;
        double score;

        Scored(String table, String column, double score) {
            this.table = table;
            this.column = column;
            this.score = score;
        }
    }

    private Query parse(String phrase) {
        MultiFieldQueryParser parser = new MultiFieldQueryParser(BOOSTS.keySet().toArray(String[]::new), analyzer, BOOSTS);
        try {
            Query query = parser.parse(QueryParser.escape(phrase));
            return query instanceof BooleanQuery b && b.clauses().isEmpty() ? null : query;
        } catch (ParseException e) {
            // the phrase is escaped; only input made of nothing searchable ends up here
            return null;
        }
    }

    /** Every hit of one kind the caller may see (the index is small: no paging needed before the filter). */
    private List<Scored> run(Query text, String kind, Permissions permissions) {
        Query query = new BooleanQuery.Builder()
                .add(text, BooleanClause.Occur.MUST)
                .add(new TermQuery(new Term(KIND, kind)), BooleanClause.Occur.FILTER)
                .build();
        try {
            List<Scored> hits = new ArrayList<>();
            Map<String, Boolean> readable = new HashMap<>();
            for (ScoreDoc doc : searcher.search(query, Math.max(1, tableOf.length)).scoreDocs) {
                String table = tableOf[doc.doc];
                if (readable.computeIfAbsent(table, permissions::canRead)) {
                    hits.add(new Scored(table, columnOf[doc.doc], doc.score));
                }
            }
            return hits;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A matched table related to another matched table that stands for a word of the phrase it does not. */
    private void liftComplementaryTables(Map<String, Double> scores, Set<String> phrase) {
        Set<String> lifted = new HashSet<>();
        for (String name : scores.keySet()) {
            Set<String> own = covered(name, phrase);
            for (Relationship r : tables.get(name).relationships()) {
                String other = r.toTable();
                if (!other.equals(name) && scores.containsKey(other) && !own.containsAll(covered(other, phrase))) {
                    lifted.add(name);
                }
            }
        }
        lifted.forEach(name -> scores.computeIfPresent(name, (k, v) -> v * JOIN_LIFT));
    }

    private Set<String> covered(String table, Set<String> phrase) {
        Set<String> covered = new HashSet<>(ownWords.get(table));
        covered.retainAll(phrase);
        return covered;
    }

    private Set<String> phraseWords(String phrase) {
        Set<String> words = new HashSet<>(words(SchemaAnalyzers.NAME, phrase));
        words.addAll(words(SchemaAnalyzers.COMMENT, phrase));
        return words;
    }

    private List<String> words(String field, String text) {
        List<String> words = new ArrayList<>();
        try (TokenStream stream = analyzer.tokenStream(field, text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            stream.reset();
            while (stream.incrementToken()) {
                words.add(term.toString());
            }
            stream.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return words;
    }

    /**
     * Columns of a matched table that reference another matched table standing for a word of the phrase the first
     * does not, as {@code table.column}.
     */
    private Set<String> joiningColumns(Set<String> matched, Set<String> phrase) {
        Set<String> joining = new HashSet<>();
        for (String name : matched) {
            Set<String> own = covered(name, phrase);
            for (Relationship r : tables.get(name).relationships()) {
                if (r.fromTable().equals(name) && !r.toTable().equals(name) && matched.contains(r.toTable())
                        && !"one_to_many".equals(r.type()) && !own.containsAll(covered(r.toTable(), phrase))) {
                    joining.add(name + "." + r.fromColumn());
                }
            }
        }
        return joining;
    }

    private String commentOf(String table, String column) {
        return tables.get(table).columns().stream().filter(c -> c.name().equals(column)).findFirst()
                .map(ColumnInfo::comment).orElse("");
    }

    private static double relevance(double score, double max) {
        return max <= 0 ? 0 : Math.round(Math.min(1, score / max) * 1000) / 1000.0;
    }

    private static Document tableDocument(TableInfo table) {
        Document doc = new Document();
        doc.add(new StringField(KIND, TABLE, Field.Store.NO));
        doc.add(new StringField(TABLE, table.name(), Field.Store.YES));
        doc.add(new TextField(SchemaAnalyzers.NAME, NameWords.of(table.name()), Field.Store.NO));
        doc.add(new TextField(SchemaAnalyzers.COMMENT, table.comment(), Field.Store.NO));
        String columns = table.columns().stream().map(c -> NameWords.of(c.name()) + " " + c.comment())
                .collect(Collectors.joining(" "));
        String related = table.relationships().stream().map(r -> NameWords.of(r.toTable())).distinct()
                .collect(Collectors.joining(" "));
        doc.add(new TextField(SchemaAnalyzers.CONTEXT, columns + " " + related, Field.Store.NO));
        return doc;
    }

    private static Document columnDocument(TableInfo table, ColumnInfo column) {
        Document doc = new Document();
        doc.add(new StringField(KIND, COLUMN, Field.Store.NO));
        doc.add(new StringField(TABLE, table.name(), Field.Store.YES));
        doc.add(new StringField(COLUMN, column.name(), Field.Store.YES));
        doc.add(new TextField(SchemaAnalyzers.NAME, NameWords.of(column.name()), Field.Store.NO));
        doc.add(new TextField(SchemaAnalyzers.COMMENT, column.comment(), Field.Store.NO));
        doc.add(new TextField(SchemaAnalyzers.CONTEXT, NameWords.of(table.name()) + " " + table.comment(), Field.Store.NO));
        return doc;
    }
}
