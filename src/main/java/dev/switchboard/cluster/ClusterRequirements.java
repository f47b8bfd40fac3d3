package dev.switchboard.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a member needs before it may join: the database every member shares (MySQL or MariaDB, never the embedded H2
 * of one instance), and the same secret keys and audit secrets as the others (a generated key of its own data dir
 * could neither read the others' stored secrets nor hash audit inputs as they do).
 */
final class ClusterRequirements {

    private ClusterRequirements() {
    }

    /** Each unmet need as a sentence; empty when the member may start. */
    static List<String> unmet(String databaseProduct, boolean secretKeysSet, boolean auditSecretsSet) {
        List<String> unmet = new ArrayList<>();
        if (databaseProduct.toLowerCase(Locale.ROOT).contains("h2")) {
            unmet.add("its database is the embedded H2: set DB_URL (with DB_USER, DB_PASSWORD) to the MySQL or MariaDB"
                    + " database every member shares");
        }
        if (!secretKeysSet) {
            unmet.add("SWITCHBOARD_SECRET_KEYS (or SWITCHBOARD_SECRET_KEY) is not set: every member needs the same keys"
                    + " to read the secrets the others stored");
        }
        if (!auditSecretsSet) {
            unmet.add("SWITCHBOARD_AUDIT_SECRETS is not set: every member needs the same secrets to hash audit inputs alike");
        }
        return unmet;
    }

    /** The refusal as one message naming every unmet need. */
    static String refusal(List<String> unmet) {
        return "Cluster mode (switchboard.cluster.members) refused to start: " + String.join("; ", unmet)
                + ". See docs/cluster.md.";
    }
}
