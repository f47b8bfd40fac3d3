package dev.switchboard.knowledge;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** A search hit as {@code /api/knowledge/search} and the {@code knowledge} tool show it. */
final class KnowledgeHits {

    private KnowledgeHits() {
    }

    static JsonObject json(KnowledgeHit hit) {
        JsonObjectBuilder json = JSON.createObjectBuilder().add("source", hit.source());
        if (hit.documentId() != null) {
            json.add("documentId", hit.documentId());
        }
        return json.add("lines", JSON.createObjectBuilder().add("start", hit.startLine()).add("end", hit.endLine()))
                .add("score", Math.round(hit.score() * 10_000) / 10_000.0)
                .add("snippet", hit.text())
                .build();
    }
}
