package dev.switchboard.cluster;

import org.eclipse.microprofile.config.Config;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * How this instance joins its cluster: the other members' addresses ({@code switchboard.cluster.members}, or the
 * headless Kubernetes service naming them, {@code switchboard.cluster.kubernetes-service-dns}), its own Hazelcast port
 * and interface, and the cluster's name. Cluster mode is on when members or the service are named.
 *
 * @param members         {@code host:port} of members to join (this one may be among them)
 * @param serviceDns      the headless service whose DNS answers list the members' pods, or empty
 * @param port            the port this member's Hazelcast listens on
 * @param networkInterface the address this member binds and announces, or empty for Hazelcast's choice
 * @param name            members join only a cluster of the same name
 */
record ClusterSettings(List<String> members, Optional<String> serviceDns, int port, Optional<String> networkInterface,
                       String name) {

    static final String MEMBERS = "switchboard.cluster.members";
    static final String SERVICE_DNS = "switchboard.cluster.kubernetes-service-dns";
    static final String PORT = "switchboard.cluster.port";
    static final String INTERFACE = "switchboard.cluster.interface";
    static final String NAME = "switchboard.cluster.name";
    static final int DEFAULT_PORT = 5701;

    static ClusterSettings from(Config config) {
        List<String> members = config.getOptionalValue(MEMBERS, String.class)
                .map(list -> Arrays.stream(list.split(",")).map(String::strip).filter(m -> !m.isEmpty()).toList())
                .orElse(List.of());
        return new ClusterSettings(members, nonBlank(config.getOptionalValue(SERVICE_DNS, String.class)),
                config.getOptionalValue(PORT, Integer.class).orElse(DEFAULT_PORT),
                nonBlank(config.getOptionalValue(INTERFACE, String.class)),
                nonBlank(config.getOptionalValue(NAME, String.class)).orElse("switchboard"));
    }

    boolean enabled() {
        return !members.isEmpty() || serviceDns.isPresent();
    }

    private static Optional<String> nonBlank(Optional<String> value) {
        return value.map(String::strip).filter(v -> !v.isEmpty());
    }
}
