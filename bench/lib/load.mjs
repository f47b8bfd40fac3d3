// Closed-loop load: N clients, each its own MCP session, each calling one tool back to back. The first `warmupMs`
// is not recorded (JIT, pools, caches); then every call that starts inside the `measureMs` window is timed, and the
// window's completed calls give the throughput. Errors are counted, never retried.
import { cpuMillis } from "./cpu.mjs";
import { percentile } from "./stats.mjs";

const SESSION_SETUP_CONCURRENCY = 8;

/**
 * @param openSession () => session with initialize/callTool/close (a new MCP session each call)
 * @param args the tool's arguments, or a function giving each call's own (e.g. to keep a result cache cold)
 * @param cpuPid the process whose CPU time per call is reported (the gateway, or the backend when called directly)
 * @returns {{clients, calls, errors, firstError, throughput, p50, p99, max, cpuPerCall}} latencies and CPU in ms,
 *   throughput in calls/s
 */
export async function runLoad({ openSession, tool, args, clients, warmupMs, measureMs, cpuPid }) {
  const sessions = [];
  const argsOf = typeof args === "function" ? args : () => args;
  try {
    for (let i = 0; i < clients; i += SESSION_SETUP_CONCURRENCY) {
      const batch = Array.from({ length: Math.min(SESSION_SETUP_CONCURRENCY, clients - i) }, async () => {
        const session = openSession();
        sessions.push(session);
        await session.initialize();
      });
      await Promise.all(batch);
    }
    const latencies = [];
    const outcome = { errors: 0, firstError: null };
    const start = performance.now();
    const measureFrom = start + warmupMs;
    const measureUntil = measureFrom + measureMs;
    let cpuAtStart = NaN;
    const cpuSample = setTimeout(() => { cpuAtStart = cpuMillis(cpuPid); }, warmupMs);
    await Promise.all(sessions.map(async (session) => {
      for (;;) {
        const begin = performance.now();
        if (begin >= measureUntil) {
          return;
        }
        try {
          await session.callTool(tool, argsOf());
          if (begin >= measureFrom) {
            latencies.push(performance.now() - begin);
          }
        } catch (e) {
          if (begin >= measureFrom) {
            outcome.errors++;
            outcome.firstError ??= e.message;
          }
        }
      }
    }));
    const elapsed = performance.now() - measureFrom;
    clearTimeout(cpuSample);
    const cpu = cpuMillis(cpuPid) - cpuAtStart;
    latencies.sort((a, b) => a - b);
    return {
      clients,
      calls: latencies.length,
      errors: outcome.errors,
      firstError: outcome.firstError,
      throughput: latencies.length / (elapsed / 1000),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.at(-1),
      cpuPerCall: cpu / latencies.length,
    };
  } finally {
    await Promise.all(sessions.map((session) => session.close()));
  }
}
