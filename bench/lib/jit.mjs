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
// --quick keeps the rule but gives up sooner: on a quiet 2-core machine the gateway's JVM settled after ~155 s
const QUICK_MAX_MS = 180_000;

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
 * for less than 5% of it, at most 5 minutes (3 with --quick). `fixedMs` (--jvm-warmup) replaces the rule with a fixed time.
 * @returns {{summary: string, settled: boolean | undefined}} what happened, for the report; `settled` is undefined
 *   when it is not known (a fixed warm-up, or no jstat)
 */
export async function warmUntilJitSettles({ pid, load, fixedMs, quick = false, minMs = MIN_MS }) {
  if (fixedMs !== undefined) {
    await load(fixedMs);
    return { summary: `${fixedMs / 1000} s (fixed)`, settled: undefined };
  }
  const maxMs = quick ? QUICK_MAX_MS : MAX_MS;
  const started = performance.now();
  let compiled = compileSeconds(pid);
  for (;;) {
    await load(CHUNK_MS);
    const now = compileSeconds(pid);
    const share = (now - compiled) * 1000 / CHUNK_MS;
    compiled = now;
    const elapsed = performance.now() - started;
    if (Number.isNaN(share) || (elapsed >= minMs && share < SETTLED_SHARE) || elapsed >= maxMs) {
      const settled = Number.isNaN(share) ? undefined : share < SETTLED_SHARE;
      const state = settled === undefined ? "jstat unavailable" : settled ? "settled" : "NOT settled";
      return { summary: `${(elapsed / 1000).toFixed(0)} s, JIT ${state} (last ${CHUNK_MS / 1000} s: ${(share * 100).toFixed(0)}% compiling)`,
        settled };
    }
  }
}

/**
 * A plain warning when Switchboard was measured with its JIT compiler still busy (or not warmed up at all), to print
 * above a suite's figures and in its report; empty when every warm-up settled. A JVM that still compiles spends its
 * CPU on the compiler, and a quick run once ranked Switchboard behind every npm gateway on such figures.
 * @param warmUps {{name: string, summary?: string, settled?: boolean}[]} one per Switchboard JVM; no summary: not warmed up
 */
export function coldNotice(warmUps) {
  const cold = warmUps.filter(({ summary, settled }) => !summary || settled === false);
  if (cold.length === 0) {
    return "";
  }
  const what = cold.map(({ name, summary }) => `${name}: ${summary ? `warm-up ${summary}` : "not warmed up (--quick)"}`).join("; ");
  return `COLD JVM, FIGURES NOT COMPARABLE: Switchboard was measured before its JIT compiler settled (${what}).\n`
    + "A JVM that is still compiling spends its CPU on the compiler: a quick gateway run once measured 13.7 ms of CPU per\n"
    + "/mcp call at 1 client where a settled JVM costs 0.39 ms. Switchboard's latencies, throughput and CPU below are not\n"
    + "comparable with the other targets' or a full run's, and its PASS/FAIL lines do not count. For representative\n"
    + "figures run again without --quick, or on a quieter machine.";
}
