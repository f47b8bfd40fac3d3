/** The server as a whole: what answers without a token, a restart, the metrics timeline, the audit API. */
package dev.switchboard.it.platform;
