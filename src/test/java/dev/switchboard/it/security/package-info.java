/** Who may do what: login and bearer tokens, users, API keys, tenants and their admins. */
package dev.switchboard.it.security;
