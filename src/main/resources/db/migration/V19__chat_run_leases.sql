-- Chat room: the owner lease of a run waiting for tool-call approvals. While it waits, its member writes its id and
-- an expiry it keeps renewing; a run whose member died stops renewing, and a sweep on any member cancels its pending
-- calls (their response says the member running it stopped) and ends the message, instead of leaving them pending.

ALTER TABLE chat_messages ADD COLUMN run_owner VARCHAR(128);
ALTER TABLE chat_messages ADD COLUMN lease_until BIGINT;
CREATE INDEX ix_chat_messages_lease ON chat_messages (lease_until);
