// CPU time a process has used (user + system, its own threads only, not its children), from /proc. On a machine
// shared with other work, wall-clock latency suffers from contention while CPU time per call stays a fair measure
// of what a gateway itself costs.
import { execFileSync } from "node:child_process";
import fs from "node:fs";

let ticksPerSecond;

/** Milliseconds of CPU used so far by `pid`, or NaN where /proc is not available. */
export function cpuMillis(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // fields from 3 (state) on
    ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return NaN;
  }
}
