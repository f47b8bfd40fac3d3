package dev.switchboard.it.cluster;

import dev.switchboard.it.support.Api;
import jakarta.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.switchboard.it.cluster.ClusterMembers.A;
import static dev.switchboard.it.cluster.ClusterMembers.ALL;
import static dev.switchboard.it.cluster.ClusterMembers.B;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The token signing key is stored once in the shared database: whichever member minted a token, every member takes it. */
class ClusterTokensIT {

    @RegisterExtension
    static final ClusterMembers cluster = new ClusterMembers();

    @Test
    void bothMembersPublishTheSameSigningKey() {
        assertEquals(A.get("/api/auth/jwks", null).expect(200).json(), B.get("/api/auth/jwks", null).expect(200).json());
    }

    @Test
    void aTokenMintedOnAWorksOnBDirectlyAndThroughTheProxy() {
        String token = A.login("admin", Api.ADMIN_PASSWORD);
        for (ClusterMembers.Member member : ALL) {
            for (int i = 0; i < 2; i++) {
                assertEquals("admin", member.get("/api/auth/me", token).expect(200).json().getString("subject"),
                        "a token of A on " + member);
            }
        }
    }

    @Test
    void anApiKeyMintedOnBWorksOnA() {
        String token = B.login("admin", Api.ADMIN_PASSWORD);
        String key = B.post("/api/api-keys", token, Json.createObjectBuilder().add("name", "cluster-it").build())
                .expect(201).json().getString("key");
        assertEquals(200, A.get("/api/auth/me", key).status(), "an API key of B on A");
    }
}
