-- Policy room: the internal hosts and networks (JSON list of CIDRs, addresses, host names) the MCP servers a tenant's
-- users register may reach. NULL and [] both mean none: users' servers reach public addresses only (README: MCP
-- servers, "Addresses users can aim the server at"). Servers registered by admins are not held to it.
ALTER TABLE policy_binding ADD COLUMN allowed_networks MEDIUMTEXT;
