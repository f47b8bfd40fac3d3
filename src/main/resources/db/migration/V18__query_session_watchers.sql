-- NL->SQL room: which instance watches a query session (its dialect connections used it last), so that instance
-- alone expires it and sends those connections session.expired. A session no instance watches (used through the MCP
-- tools only), or whose instance is gone (its expiry long past), is removed by any instance.

ALTER TABLE query_sessions ADD COLUMN watched_by VARCHAR(64);
