// --profile: a Java Flight Recorder recording of the Switchboard JVM over a suite's run, summarised as where its
// CPU samples land (the hottest methods, the Switchboard methods most often on the stack), how many threads were
// started and by what, and how long the JIT compiled. The recording stays in the work dir for JDK Mission Control.
import { execFileSync } from "node:child_process";
import path from "node:path";

const TOP = 15;

export function startRecording({ switchboard, workDir }, suite) {
  const file = path.join(workDir, `switchboard-${suite}.jfr`);
  jcmd(switchboard.pid, "JFR.start", "name=bench", "settings=profile", `filename=${file}`);
  return {
    stop() {
      jcmd(switchboard.pid, "JFR.stop", "name=bench");
      return summarise(file);
    },
  };
}

function jcmd(pid, ...command) {
  execFileSync("jcmd", [String(pid), ...command], { stdio: "ignore" });
}

function events(file, types, depth = 64) {
  const json = execFileSync("jfr", ["print", "--json", "--stack-depth", String(depth), "--events", types, file],
    { maxBuffer: 1 << 30 }).toString("utf8");
  return JSON.parse(json).recording.events;
}

function summarise(file) {
  const samples = events(file, "jdk.ExecutionSample");
  const self = new Map();
  const onStack = new Map();
  for (const event of samples) {
    const frames = event.values.stackTrace?.frames ?? [];
    if (frames.length === 0) {
      continue;
    }
    count(self, name(frames[0]));
    // inclusive: every distinct Switchboard method on the stack, once per sample
    new Set(frames.map(name).filter((n) => n.startsWith("dev.switchboard."))).forEach((n) => count(onStack, n));
  }
  const top = (map, total) => [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, TOP)
    .map(([key, n]) => `  ${((100 * n) / total).toFixed(1).padStart(5)}%  ${key}`).join("\n");
  // what started threads: a thread per call shows up here (e.g. the JDK HttpClient's completion on a
  // thread-per-task executor when the common pool has fewer than 2 threads)
  const starts = events(file, "jdk.ThreadStart", 8);
  const starters = new Map();
  for (const event of starts) {
    const frames = event.values.stackTrace?.frames ?? [];
    count(starters, frames.slice(0, 3).map(name).join(" < ") || "?");
  }
  const compiling = events(file, "jdk.Compilation", 1).reduce((sum, event) => sum + seconds(event.values.duration), 0);
  return `Switchboard JVM profile (recording ${file}):\n`
    + `CPU samples: ${samples.length}; hottest methods (self):\n${top(self, samples.length)}\n`
    + `Switchboard methods on the stack (inclusive):\n${top(onStack, samples.length)}\n`
    + `threads started: ${starts.length}, by:\n${top(starters, starts.length || 1)}\n`
    + `JIT compilation during the recording: ${compiling.toFixed(1)} s (a JVM still warming up when this is large)`;
}

// class names come in internal form (dev/switchboard/...)
const name = (frame) => `${frame.method.type.name.replaceAll("/", ".")}.${frame.method.name}`;
const seconds = (iso) => {
  const match = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?$/.exec(iso ?? "");
  return match ? Number(match[1] ?? 0) * 3600 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0) : 0;
};
const count = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);

// node bench/lib/profile.mjs FILE.jfr: summarise a recording again
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(summarise(process.argv[2]));
}
