package dev.switchboard.sql.service;

import dev.switchboard.sql.Caller;
import dev.switchboard.sql.Params;
import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import dev.switchboard.sql.session.QuerySession;
import dev.switchboard.sql.session.SessionStore;
import jakarta.json.JsonObject;

import java.util.Map;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The query dialect's {@code session.create}, {@code session.get} and {@code session.destroy}: need {@code session:manage};
 * a session belongs to the caller that created it ({@code user_id} in the params may only name the caller itself,
 * or anyone for an admin).
 */
public final class SessionService {

    public static final String SESSION_MANAGE = "session:manage";

    private final SessionStore store;

    public SessionService(SessionStore store) {
        this.store = store;
    }

    public JsonObject create(Caller caller, JsonObject params) {
        caller.require(SESSION_MANAGE);
        String owner = owner(caller, params);
        QuerySession session = store.create(owner);
        return JSON.createObjectBuilder().add("session_id", session.id()).add("created_at", session.createdAt().toString())
                .add("expires_at", session.expiresAt().toString()).build();
    }

    public JsonObject get(Caller caller, JsonObject params) {
        caller.require(SESSION_MANAGE);
        QuerySession session = store.touch(Params.requiredString(params, "session_id"), owner(caller, params));
        return JSON.createObjectBuilder().add("session_id", session.id()).add("user_id", session.userId())
                .add("history", session.history()).add("context", session.context())
                .add("created_at", session.createdAt().toString()).add("last_accessed", session.lastAccessed().toString())
                .add("expires_at", session.expiresAt().toString()).build();
    }

    public JsonObject destroy(Caller caller, JsonObject params) {
        caller.require(SESSION_MANAGE);
        String id = Params.requiredString(params, "session_id");
        if (!store.destroy(id, owner(caller, params))) {
            throw new QueryException(QueryErrorCode.SESSION, "会话不存在", Map.of("session_id", id));
        }
        return JSON.createObjectBuilder().add("success", true).add("message", "会话已成功销毁").build();
    }

    private static String owner(Caller caller, JsonObject params) {
        String named = Params.optionalString(params, "user_id", null);
        if (named == null || named.equals(caller.userId())) {
            return caller.userId();
        }
        if (!caller.permissions().isAdmin()) {
            throw new QueryException(QueryErrorCode.AUTHORIZATION, "不能管理其他用户的会话",
                    Params.data("required_permission", "admin:*", "user_permissions", caller.permissions().sorted()));
        }
        return named;
    }
}
