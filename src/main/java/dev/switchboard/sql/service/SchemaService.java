package dev.switchboard.sql.service;

import dev.switchboard.sql.Caller;
import dev.switchboard.sql.Params;
import dev.switchboard.sql.Permissions;
import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import dev.switchboard.sql.catalog.ColumnInfo;
import dev.switchboard.sql.catalog.ForeignKeyInfo;
import dev.switchboard.sql.catalog.IndexInfo;
import dev.switchboard.sql.catalog.Relationship;
import dev.switchboard.sql.catalog.SchemaCatalog;
import dev.switchboard.sql.catalog.TableInfo;
import dev.switchboard.sql.search.SchemaHits;
import dev.switchboard.sql.search.SchemaSearch;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.util.List;
import java.util.Map;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** The query dialect's {@code schema.info} and {@code schema.search}: both need {@code schema:read}, and show readable tables only. */
public final class SchemaService {

    public static final String SCHEMA_READ = "schema:read";

    private final SchemaCatalog catalog;
    private final SchemaSearch search;

    public SchemaService(SchemaCatalog catalog, SchemaSearch search) {
        this.catalog = catalog;
        this.search = search;
    }

    public JsonObject info(Caller caller, JsonObject params) {
        caller.require(SCHEMA_READ);
        String name = Params.optionalString(params, "table", null);
        boolean relationships = Params.optionalBoolean(params, "include_relationships", true);
        if (name == null) {
            JsonArrayBuilder tables = JSON.createArrayBuilder();
            catalog.tables().values().stream().filter(t -> caller.permissions().canRead(t.name()))
                    .forEach(t -> tables.add(JSON.createObjectBuilder().add("name", t.name()).add("comment", t.comment())));
            return JSON.createObjectBuilder().add("tables", tables).build();
        }
        TableInfo table = catalog.table(name).orElseThrow(() ->
                new QueryException(QueryErrorCode.SCHEMA, "表不存在", Map.of("table", name)));
        if (!caller.permissions().canRead(table.name())) {
            caller.require(Permissions.readPermission(table.name()));
        }
        return JSON.createObjectBuilder().add("table", describe(table, relationships)).build();
    }

    public JsonObject search(Caller caller, JsonObject params) {
        caller.require(SCHEMA_READ);
        SchemaHits hits = search.search(Params.requiredString(params, "query"),
                Params.optionalInt(params, "limit", SchemaSearch.DEFAULT_LIMIT), caller.permissions());
        JsonArrayBuilder tables = JSON.createArrayBuilder();
        hits.tables().forEach(t -> tables.add(JSON.createObjectBuilder().add("name", t.name()).add("comment", t.comment())
                .add("relevance", t.relevance())));
        JsonArrayBuilder columns = JSON.createArrayBuilder();
        hits.columns().forEach(c -> columns.add(JSON.createObjectBuilder().add("table", c.table()).add("column", c.column())
                .add("comment", c.comment()).add("relevance", c.relevance())));
        return JSON.createObjectBuilder().add("tables", tables).add("columns", columns).build();
    }

    static JsonObject describe(TableInfo table, boolean withRelationships) {
        JsonObjectBuilder out = JSON.createObjectBuilder().add("name", table.name()).add("comment", table.comment());
        out.add("engine", table.engine() == null ? JSON.createValue("") : JSON.createValue(table.engine()));
        out.add("charset", table.charset() == null ? JSON.createValue("") : JSON.createValue(table.charset()));
        JsonArrayBuilder columns = JSON.createArrayBuilder();
        for (ColumnInfo c : table.columns()) {
            columns.add(JSON.createObjectBuilder().add("name", c.name()).add("type", c.type()).add("nullable", c.nullable())
                    .add("default_value", c.defaultValue()).add("comment", c.comment())
                    .add("is_primary_key", c.primaryKey()).add("is_auto_increment", c.autoIncrement()));
        }
        JsonArrayBuilder indexes = JSON.createArrayBuilder();
        for (IndexInfo i : table.indexes()) {
            indexes.add(JSON.createObjectBuilder().add("name", i.name()).add("type", i.type())
                    .add("columns", strings(i.columns())).add("is_unique", i.unique()));
        }
        JsonArrayBuilder keys = JSON.createArrayBuilder();
        for (ForeignKeyInfo k : table.foreignKeys()) {
            keys.add(JSON.createObjectBuilder().add("name", k.name()).add("columns", strings(k.columns()))
                    .add("referenced_table", k.referencedTable()).add("referenced_columns", strings(k.referencedColumns())));
        }
        out.add("columns", columns).add("indexes", indexes).add("foreign_keys", keys);
        if (withRelationships) {
            JsonArrayBuilder relationships = JSON.createArrayBuilder();
            for (Relationship r : table.relationships()) {
                relationships.add(JSON.createObjectBuilder().add("type", r.type()).add("from_table", r.fromTable())
                        .add("from_column", r.fromColumn()).add("to_table", r.toTable()).add("to_column", r.toColumn())
                        .add("source", r.source()));
            }
            out.add("relationships", relationships);
        }
        return out.build();
    }

    private static JsonArrayBuilder strings(List<String> values) {
        JsonArrayBuilder array = JSON.createArrayBuilder();
        values.forEach(array::add);
        return array;
    }
}
