package dev.switchboard.backend.builtin;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Optional;

/** The built-in servers this deployment has (each room contributes its own as a CDI bean). */
@ApplicationScoped
public class BuiltinServers {

    @Inject
    @Any
    Instance<BuiltinServer> servers;

    public Optional<BuiltinServer> find(String name) {
        return servers.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    public List<String> names() {
        return servers.stream().map(BuiltinServer::name).sorted().toList();
    }
}
