// Warming a Switchboard JVM until its JIT compiler has settled. Liberty and the application are ~25,000 compiled
// methods, and on 2 cores the C2 compiler threads keep a core busy for minutes after a new kind of load starts
// (seen: 8-10 s of compilation inside an 8 s cell after a 20 s warm-up, CPU per gateway call 3.7-4.9 ms; after
// 100 s of warm-up 5 s of compilation per cell and 1.8-2.0 ms per call). Measured then, every target on the
// machine pays for compilation that a long-running server does once: the load is repeated in chunks until one
// chunk's compilation time falls under a small share of its length.
import { execFileSync } from "node:child_process";

const CHUNK_MS = 10_000;
const MIN_MS = 30_000;
const MAX_MS = 300_000;
const SETTLED_SHARE = 0.05;

/** Seconds the JVM's compiler threads have spent compiling so far (jstat -compiler), or NaN without jstat. */
export function compileSeconds(pid) {
  try {
    const [, values] = execFileSync("jstat", ["-compiler", String(pid)]).toString().trim().split("\n");
    return Number(values.trim().split(/\s+/)[3]);
  } catch {
    return NaN;
  }
}

/**
 * Runs `load(ms)` (unrecorded load for that long) in chunks: at least `minMs` (30 s), then until one chunk of 10 s compiled
 * for less than 5% of it, at most 5 minutes. `fixedMs` (--jvm-warmup) replaces the rule with a fixed time.
 * @returns {string} what happened, for the report
 */
export async function warmUntilJitSettles({ pid, load, fixedMs, minMs = MIN_MS }) {
  if (fixedMs !== undefined) {
    await load(fixedMs);
    return `${fixedMs / 1000} s (fixed)`;
  }
  const started = performance.now();
  let compiled = compileSeconds(pid);
  for (;;) {
    await load(CHUNK_MS);
    const now = compileSeconds(pid);
    const share = (now - compiled) * 1000 / CHUNK_MS;
    compiled = now;
    const elapsed = performance.now() - started;
    if (Number.isNaN(share) || (elapsed >= minMs && share < SETTLED_SHARE) || elapsed >= MAX_MS) {
      const settled = Number.isNaN(share) ? "jstat unavailable" : share < SETTLED_SHARE ? "settled" : "NOT settled";
      return `${(elapsed / 1000).toFixed(0)} s, JIT ${settled} (last ${CHUNK_MS / 1000} s: ${(share * 100).toFixed(0)}% compiling)`;
    }
  }
}
