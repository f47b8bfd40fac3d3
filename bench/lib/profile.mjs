// --profile: a Java Flight Recorder recording of the Switchboard JVM over a suite's run, summarised as where its
// CPU samples land (the hottest methods, the Switchboard methods most often on the stack), how many threads were
// started and by what, and how long the JIT compiled. The recording stays in the work dir for JDK Mission Control.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

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

/** The summary of a recording, read by JfrSummary.java with the JDK's recording API (see there why not `jfr print`). */
function summarise(file) {
  const summary = path.join(path.dirname(fileURLToPath(import.meta.url)), "JfrSummary.java");
  return execFileSync("java", [summary, file], { maxBuffer: 16 << 20 }).toString("utf8").trimEnd();
}

// node bench/lib/profile.mjs FILE.jfr: summarise a recording again
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(summarise(process.argv[2]));
}
