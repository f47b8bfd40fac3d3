/**
 * Cluster mode: two members of the same WAR on one MariaDB database, each called directly and through haproxy in
 * front of both (round robin, no stickiness), started once for all these tests by {@link
 * dev.switchboard.it.cluster.ClusterMembers}; and a member refused at start.
 */
package dev.switchboard.it.cluster;
