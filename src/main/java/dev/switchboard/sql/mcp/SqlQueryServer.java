package dev.switchboard.sql.mcp;

import dev.switchboard.backend.builtin.BuiltinServer;
import dev.switchboard.security.CallerIdentity;
import dev.switchboard.mcp.server.InProcessToolServer;
import dev.switchboard.mcp.transport.InProcessServer;
import dev.switchboard.sql.Caller;
import dev.switchboard.sql.server.QueryDialectBean;
import dev.switchboard.sql.service.QueryService;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The built-in MCP server {@code sqlquery}: {@link SqlQueryTools} served in-process to the gateway, the chat loop
 * and the REST API. Each call acts for the connection's caller with the permissions admins granted it and its roles in
 * its tenant (or the role mapping {@code query.role.*} where no admin set a role's grants), read at the call, so a
 * grant, a revocation or a changed schema applies to the next call.
 */
@ApplicationScoped
public class SqlQueryServer implements BuiltinServer {

    static final String VERSION = "1.0.0";

    @Inject
    QueryDialectBean service;

    @Resource
    ManagedScheduledExecutorService scheduler;

    @Inject
    @ConfigProperty(name = "query.progress-interval", defaultValue = "PT5S")
    Duration progressInterval;

    private volatile SqlQueryTools tools;

    @Override
    public String name() {
        return SqlQueryTools.SERVER_NAME;
    }

    @Override
    public InProcessServer serve(CallerIdentity identity) {
        SqlQueryTools served = tools();
        return new InProcessToolServer(SqlQueryTools.SERVER_NAME, VERSION, new InProcessToolServer.Tools() {
            @Override
            public JsonArray list() {
                return served.list();
            }

            @Override
            public boolean has(String name) {
                return served.has(name);
            }

            @Override
            public JsonObject call(String name, JsonObject arguments, InProcessToolServer.Progress progress) {
                ScheduledFuture<?> reports = name.equals("query_execute") && progress.wanted()
                        ? reportProgress(arguments, progress) : null;
                try {
                    return served.call(caller(identity), name, arguments);
                } finally {
                    if (reports != null) {
                        reports.cancel(false);
                    }
                }
            }
        });
    }

    /** The connection lives no longer than the pool keeps it; the gateway checked the token on every request. */
    private Caller caller(CallerIdentity identity) {
        return service.permissions().caller(identity.subject(), identity.tenant(), List.copyOf(identity.roles()), Instant.MAX);
    }

    /**
     * The query dialect's {@code query.progress} as MCP progress, every {@code query.progress-interval} while a question is
     * answered: seconds elapsed out of the query's timeout.
     */
    private ScheduledFuture<?> reportProgress(JsonObject arguments, InProcessToolServer.Progress progress) {
        long started = System.nanoTime();
        JsonValue options = arguments.get("options");
        JsonValue timeout = options instanceof JsonObject o ? o.get("timeout") : null;
        double total = timeout instanceof JsonNumber n ? n.doubleValue() : QueryService.DEFAULT_TIMEOUT_SECONDS;
        long every = progressInterval.toMillis();
        return scheduler.scheduleAtFixedRate(() -> progress.report(Math.round((System.nanoTime() - started) / 1e8) / 10.0,
                total, "正在执行查询..."), every, every, TimeUnit.MILLISECONDS);
    }

    private SqlQueryTools tools() {
        if (tools == null) {
            tools = new SqlQueryTools(service.methods());
        }
        return tools;
    }
}
