package dev.switchboard.it.chat;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.NewUser;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code /api/knowledge} against the server started by the build, whose knowledge folder is {@code it.knowledge.dir}
 * (a bootstrap property in pom.xml): the labelled corpus of the evaluation is copied there, searched, changed.
 */
class KnowledgeIT {

    static Path folder;
    static String admin;
    @RegisterExtension
    static final NewUser user = new NewUser();
    static Path added;

    @BeforeAll
    static void copyCorpus() throws Exception {
        folder = Path.of(System.getProperty("it.knowledge.dir", "target/it-knowledge"));
        Path corpus = Path.of(KnowledgeIT.class.getResource("/knowledge/corpus").toURI());
        try (Stream<Path> files = Files.walk(corpus)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Path target = folder.resolve(corpus.relativize(file).toString());
                Files.createDirectories(target.getParent());
                Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        admin = Api.adminToken();
    }

    @AfterAll
    static void removeAddedFile() throws IOException {
        if (added != null) {
            Files.deleteIfExists(added);
        }
    }

    static String search(String query) {
        return "/api/knowledge/search?q=" + URLEncoder.encode(query, StandardCharsets.UTF_8);
    }

    @Test
    void reindexCountsTheCorpusAndSearchRanksWithNormalisedScores() {
        JsonObject stats = Api.post("/api/knowledge/reindex", admin, null).expect(200).json();
        assertTrue(stats.getInt("files") >= 22, stats.toString());
        assertTrue(stats.getInt("passages") >= stats.getInt("files"), stats.toString());
        assertEquals(0, stats.getInt("skipped"));

        JsonArray hits = Api.get(search("怎么减小 Docker 镜像的体积？"), user.token()).expect(200).json().getJsonArray("data");
        assertTrue(hits.size() >= 1 && hits.size() <= 3, "seed default: at most 3 hits: " + hits);
        JsonObject best = hits.getJsonObject(0);
        assertEquals("ops/docker_deploy.md", best.getString("source"));
        JsonObject lines = best.getJsonObject("lines");
        assertTrue(lines.getInt("start") >= 1 && lines.getInt("end") >= lines.getInt("start"), best.toString());
        double score = best.getJsonNumber("score").doubleValue();
        assertTrue(score >= 0.1 && score < 1, best.toString());
        assertTrue(best.getString("snippet").contains("多阶段构建") || best.getString("snippet").contains("镜像"), best.toString());

        assertEquals(1, Api.get(search("TLS certificate renewal") + "&limit=1", user.token()).expect(200).json()
                .getJsonArray("data").size());
        assertEquals(0, Api.get(search("TLS certificate renewal") + "&minScore=1", user.token()).expect(200).json()
                .getJsonArray("data").size(), "no passage reaches the unreachable ceiling");
        assertEquals(0, Api.get(search("kubernetes helm chart"), user.token()).expect(200).json().getJsonArray("data").size(),
                "nothing relevant, nothing returned");
    }

    @Test
    void badInputIsRefusedInTheApisErrorShape() {
        assertEquals("missing_field", Api.get("/api/knowledge/search", user.token()).expect(400).errorCode());
        assertEquals("missing_field", Api.get("/api/knowledge/search?q=%20", user.token()).expect(400).errorCode());
        assertEquals("too_long", Api.get(search("a".repeat(10 * 1024)), user.token()).expect(400).errorCode());
        assertEquals("invalid_field", Api.get(search("docker") + "&limit=-1", user.token()).expect(400).errorCode());
        assertEquals("invalid_field", Api.get(search("docker") + "&limit=ten", user.token()).expect(400).errorCode());
        assertEquals("invalid_field", Api.get(search("docker") + "&limit=1000", user.token()).expect(400).errorCode());
        assertEquals("invalid_field", Api.get(search("docker") + "&minScore=2", user.token()).expect(400).errorCode());
        assertEquals("invalid_field", Api.get(search("docker") + "&minScore=abc", user.token()).expect(400).errorCode());
    }

    @Test
    void searchNeedsATokenAndReindexNeedsAnAdmin() {
        Api.get(search("docker"), null).expect(401);
        Api.get(search("docker"), "not-a-token").expect(401);
        Api.post("/api/knowledge/reindex", null, null).expect(401);
        Api.post("/api/knowledge/reindex", user.token(), null).expect(403);
    }

    @Test
    void aFileAddedToTheFolderIsFoundWithoutReindexAndGoneOnceDeleted() throws IOException {
        String word = "zebrafish" + UUID.randomUUID().toString().substring(0, 8).replaceAll("[0-9-]", "x");
        added = folder.resolve("added-" + word + ".md");
        Files.writeString(added, "# Added\n\nThe " + word + " protocol is documented here.\n");
        awaitHits(word, n -> n == 1, "the new file is indexed by the refresh timer");
        Files.delete(added);
        awaitHits(word, n -> n == 0, "the deleted file leaves the index");
    }

    private static void awaitHits(String word, Predicate<Integer> wanted, String what) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        int count = -1;
        while (Instant.now().isBefore(deadline)) {
            count = Api.get(search(word), user.token()).expect(200).json().getJsonArray("data").size();
            if (wanted.test(count)) {
                return;
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        throw new AssertionError(what + " within 20 s; hits: " + count);
    }
}
