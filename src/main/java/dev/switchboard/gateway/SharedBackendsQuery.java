package dev.switchboard.gateway;

import dev.switchboard.backend.registry.McpServer;
import dev.switchboard.backend.registry.McpServerRegistry;
import dev.switchboard.backend.tools.BackendNames;
import dev.switchboard.security.CurrentUser;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads the active servers shared in a caller's tenant from the registry; {@link SharedBackends} keeps the answers. */
@ApplicationScoped
public class SharedBackendsQuery {

    @Inject
    McpServerRegistry registry;

    /**
     * A transaction of its own because WebSocket messages arrive on container threads without one, where the
     * EntityManager cannot even query.
     */
    @Transactional
    public List<GatewayBackend> of(CurrentUser caller) {
        List<McpServer> servers = registry.visible(caller).stream()
                .filter(s -> s.getScope() == McpServer.Scope.SHARED && s.isActive())
                // by id, so the older of two servers whose names sanitise alike keeps the plain name
                .sorted(Comparator.comparing(McpServer::getId))
                .toList();
        Map<String, String> namesById = new LinkedHashMap<>();
        servers.forEach(s -> namesById.put(String.valueOf(s.getId()), s.getName()));
        Map<String, String> gatewayNames = BackendNames.assign(namesById);
        return servers.stream().map(s -> new GatewayBackend(gatewayNames.get(String.valueOf(s.getId())),
                String.valueOf(s.getId()), Set.copyOf(registry.disabledTools(s)),
                Duration.ofSeconds(s.getTimeoutSeconds()), registry.specSource(s, caller))).toList();
    }
}
