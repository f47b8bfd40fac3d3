package dev.switchboard.policy;

import dev.switchboard.platform.egress.AllowedNetwork;
import dev.switchboard.persistence.DatabaseKinds;
import dev.switchboard.persistence.TestDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A tenant's policy, its allowed networks included (migration V12), is read back as written on H2 and MariaDB. */
class TenantPolicyPersistenceTest {

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void allowedNetworksSurviveARestart(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            TenantPolicy written = PolicyJson.read(jakarta.json.Json.createObjectBuilder()
                    .add("tools", jakarta.json.Json.createArrayBuilder().add("files__*"))
                    .add("allowedNetworks", jakarta.json.Json.createArrayBuilder().add("10.20.0.0/16").add("fd00::/8")
                            .add("mcp.internal.example")).build());
            db.run(em -> {
                em.persist(new Tenant("acme", "Acme", 1L));
                em.flush();
                PolicyBinding binding = new PolicyBinding("acme");
                binding.set(written, 1L);
                em.persist(binding);
                PolicyBinding none = new PolicyBinding("bare");
                em.persist(new Tenant("bare", "Bare", 1L));
                em.flush();
                none.set(TenantPolicy.UNRESTRICTED, 1L);
                em.persist(none);
            });
            db.reopen();
            TenantPolicy read = db.inTransaction(em -> em.find(PolicyBinding.class, "acme").policy());
            assertEquals(List.of("10.20.0.0/16", "fd00::/8", "mcp.internal.example"),
                    read.allowedNetworks().stream().map(AllowedNetwork::text).toList());
            assertEquals(written, read);
            assertEquals(List.of(), db.inTransaction(em -> em.find(PolicyBinding.class, "bare").policy()).allowedNetworks());
        }
    }
}
