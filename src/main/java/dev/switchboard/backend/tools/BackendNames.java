package dev.switchboard.backend.tools;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Gateway-facing backend names from registered server names: characters outside {@code [A-Za-z0-9.-]} become
 * {@code _} and runs of {@code _} collapse to one, so a backend name never holds the {@code __} separator and
 * {@code {backend}__{tool}} splits unambiguously at its first {@code __}. Two servers whose names sanitise alike
 * are told apart by their id.
 */
public final class BackendNames {

    private BackendNames() {
    }

    public static String sanitise(String serverName) {
        String name = serverName.replaceAll("[^A-Za-z0-9.-]", "_").replaceAll("_+", "_");
        if (name.startsWith("_")) {
            name = name.substring(1);
        }
        if (name.endsWith("_")) {
            name = name.substring(0, name.length() - 1);
        }
        return name.isEmpty() ? "server" : name;
    }

    /**
     * Unique names for servers given as id -> registered name, in the given order (the first keeps the plain name).
     */
    public static Map<String, String> assign(Map<String, String> serverNamesById) {
        Map<String, String> byId = new LinkedHashMap<>();
        Set<String> taken = new HashSet<>();
        for (Map.Entry<String, String> server : serverNamesById.entrySet()) {
            String name = sanitise(server.getValue());
            if (!taken.add(name)) {
                name = name + "-" + server.getKey();
                taken.add(name);
            }
            byId.put(server.getKey(), name);
        }
        return byId;
    }
}
