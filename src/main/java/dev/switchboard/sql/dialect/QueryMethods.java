package dev.switchboard.sql.dialect;

import dev.switchboard.sql.Caller;
import dev.switchboard.sql.service.QueryService;
import dev.switchboard.sql.service.SchemaService;
import dev.switchboard.sql.service.SessionService;
import dev.switchboard.sql.service.SuggestService;
import jakarta.json.JsonObject;

import java.util.Map;
import java.util.Optional;

/** The dialect's methods that need an authenticated caller, by name: one table every transport and the MCP tools use. */
public final class QueryMethods {

    @FunctionalInterface
    public interface Method {
        JsonObject call(Caller caller, JsonObject params);
    }

    private final Map<String, Method> methods;

    public QueryMethods(QueryService query, SchemaService schema, SuggestService suggest, SessionService sessions) {
        this.methods = Map.of(
                "query.execute", query::execute,
                "query.explain", query::explain,
                "query.suggest", suggest::suggest,
                "schema.info", schema::info,
                "schema.search", schema::search,
                "session.create", sessions::create,
                "session.get", sessions::get,
                "session.destroy", sessions::destroy);
    }

    public Optional<Method> find(String name) {
        return Optional.ofNullable(methods.get(name));
    }
}
