// Entry point of the benchmarks (run through bench/run.sh, which builds the WAR and installs the npm packages):
//   node bench/bench.mjs [gateway|chat|governance|sql|hostile|all] [--quick]
// Starts Switchboard and every peer on 127.0.0.1 ports 19400-19419 (the governance run: 19420-19439, the NL->SQL run:
// 19500-19503, with a database of its own on the local MariaDB; the hostile JSON run: 19540-19542), prints the
// figures side by side with the targets they are held to, writes them as JSON under target/bench/results/, and stops
// everything it started.
// A benchmark reports; it does not fail the build. The exit code is 0 unless the run itself broke.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gatewayBenchmark } from "./gateway.mjs";
import { chatBenchmark, PROVIDER_PORT } from "./chat.mjs";
import { governanceBenchmark } from "./governance.mjs";
import { sqlBenchmark } from "./sql.mjs";
import { hostileBenchmark } from "./hostile.mjs";
import { stopAll } from "./lib/processes.mjs";
import { startSwitchboard } from "./lib/switchboard.mjs";

const SWITCHBOARD_PORT = 19400;
const SUITES = { gateway: gatewayBenchmark, chat: chatBenchmark, governance: governanceBenchmark, sql: sqlBenchmark, hostile: hostileBenchmark };
// suites that start Switchboard themselves (with their own settings); the shared one is stopped before they run
const OWN_SWITCHBOARD = new Set(["governance", "sql", "hostile"]);

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const which = args.find((arg) => !arg.startsWith("--")) ?? "all";
const listOption = (name) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3).split(",");
// for a closer look (see bench/README.md): --clients=16, --targets=switchboard,mcp-proxy, --profile,
// --switchboard-port=19402 (when another run on this machine holds 19400), --jvm-warmup=60 (seconds of unrecorded load
// per Switchboard endpoint before measuring; default 15)
const switchboardPort = Number(listOption("switchboard-port")?.[0] ?? SWITCHBOARD_PORT);
const options = {
  clients: listOption("clients")?.map(Number),
  targets: listOption("targets"),
  profile: args.includes("--profile"),
  jvmWarmupMs: listOption("jvm-warmup") ? Number(listOption("jvm-warmup")[0]) * 1000 : undefined,
  pacedShare: listOption("paced-share") ? Number(listOption("paced-share")[0]) : undefined,
  ownCore: args.includes("--own-core"),
};
if (!(which in SUITES) && which !== "all") {
  console.error(`usage: bench/run.sh [gateway|chat|governance|sql|hostile|all] [--quick] [--clients=N,..] [--targets=name,..] [--profile] [--switchboard-port=N] [--jvm-warmup=S] [--paced-share=F] [--own-core]   (unknown suite '${which}')`);
  process.exit(2);
}

const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const workDir = process.env.BENCH_WORK_DIR ?? path.join(repoDir, "target", "bench");
const logDir = path.join(workDir, "logs");
fs.mkdirSync(logDir, { recursive: true });
const nodeModules = path.join(workDir, "node", "node_modules");

const startedAt = new Date();
try {
  console.log(`Switchboard benchmarks (${which}${quick ? ", quick" : ""}) on ${machine()}; logs in ${logDir}`);
  const suites = which === "all" ? Object.keys(SUITES) : [which];
  const switchboard = suites.every((name) => OWN_SWITCHBOARD.has(name)) ? null : await startSwitchboard({
    repoDir, workDir, port: switchboardPort,
    properties: { "llm.base-url": `http://127.0.0.1:${PROVIDER_PORT}/v1`, "llm.api-key": "bench-llm-key", "llm.model": "scripted-model" },
  });
  const ctx = { switchboard, repoDir, workDir, logDir, nodeModules, quick, options };
  const results = {};
  for (const name of suites) {
    if (OWN_SWITCHBOARD.has(name)) {
      switchboard?.stop();
    }
    results[name] = await SUITES[name](ctx);
  }
  const resultsDir = path.join(workDir, "results");
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${startedAt.toISOString().replace(/[:.]/g, "-")}-${which}${quick ? "-quick" : ""}.json`);
  fs.writeFileSync(file, JSON.stringify({ startedAt, quick, machine: machine(), results },
    (key, value) => (key === "latencies" ? undefined : value), 2));
  console.log(`\nfigures written to ${file}; took ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
} catch (e) {
  console.error(`\nbenchmark run failed: ${e.stack ?? e}`);
  process.exitCode = 1;
} finally {
  await stopAll();
}

function machine() {
  const [one, five] = os.loadavg();
  return `${os.cpus().length} cores (${os.cpus()[0]?.model ?? os.arch()}), node ${process.version}, `
    + `load average ${one.toFixed(1)} (1 min) ${five.toFixed(1)} (5 min)`;
}
