// Core layouts for a benchmark cell (Linux, taskset from util-linux). "own core": the gateway under test gets CPU 1
// to itself, while the load client and the backend (an HTTP server, or the gateway's own stdio children) share CPU 0,
// as if the gateway ran on a host of its own. Without a layout every process may run on every core.
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const CLIENT_AND_BACKEND_CPU = "0";
const GATEWAY_CPU = "1";
const ALL_CPUS = "0,1";
/** A gateway may start backend children while a cell runs (supergateway: one per session): they are moved this often. */
const CHILDREN_RECHECK_MS = 500;

/** Moves every thread of each process to `cpus` (a taskset list); processes that are gone are skipped. */
export function pin(pids, cpus) {
  for (const pid of pids) {
    try {
      execFileSync("taskset", ["-a", "-p", "-c", cpus, String(pid)], { stdio: "ignore" });
    } catch {
      // exited meanwhile
    }
  }
}

/** The pids of every process below `pid` (children, their children, ...), from /proc. */
export function descendants(pid) {
  const children = new Map();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // exited meanwhile
    }
  }
  const found = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/**
 * Runs `work` with the gateway `gatewayPid` alone on CPU 1 and the load client, the `backendPids` and the gateway's
 * descendants (its stdio backends) on CPU 0; every `idlePids` (the gateways not under test) on CPU 1 too. For the
 * direct target `gatewayPid` is null. All processes may use every core again afterwards.
 */
export async function withOwnCore({ gatewayPid, backendPids, idlePids }, work) {
  const clientAndBackends = () => [process.pid, ...backendPids, ...(gatewayPid ? descendants(gatewayPid) : [])];
  pin(idlePids, GATEWAY_CPU);
  if (gatewayPid) {
    pin([gatewayPid], GATEWAY_CPU);
  }
  pin(clientAndBackends(), CLIENT_AND_BACKEND_CPU);
  const recheck = gatewayPid ? setInterval(() => pin(descendants(gatewayPid), CLIENT_AND_BACKEND_CPU), CHILDREN_RECHECK_MS) : null;
  try {
    return await work();
  } finally {
    clearInterval(recheck);
    pin([...clientAndBackends(), ...idlePids, ...(gatewayPid ? [gatewayPid] : [])], ALL_CPUS);
  }
}
