// Child processes of a benchmark run: each logs to its own file in the work dir, and all are stopped when the run
// ends, however it ends (normal exit, error, Ctrl-C), so a run never leaves a server behind.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

const children = new Set();
const cleanups = [];

/** Starts a command whose output goes to `<logDir>/<name>.log`; it is stopped (process group) when the run ends. */
export function start(name, command, args, { logDir, env = {}, cwd } = {}) {
  const log = fs.openSync(path.join(logDir, `${name}.log`), "w");
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", log, log], detached: true });
  child.benchName = name;
  children.add(child);
  child.on("exit", () => children.delete(child));
  return child;
}

/** Registers work to do when the run ends (e.g. `server stop`), run before the children are killed. */
export function onExit(cleanup) {
  cleanups.push(cleanup);
}

export async function stopAll() {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await Promise.resolve().then(cleanup).catch((e) => console.error(`cleanup failed: ${e.message}`));
  }
  for (const child of children) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + 5000;
  while (children.size > 0 && Date.now() < deadline) {
    await sleep(100);
  }
  for (const child of children) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => stopAll().finally(() => process.exit(130)));
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check()` resolves truthy, or fails after `timeoutMs` naming what was awaited. */
export async function waitFor(what, check, timeoutMs = 60_000, child = null) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) {
      throw new Error(`${what}: the process exited with ${child.exitCode} (see ${child.benchName}.log)`);
    }
    if (await Promise.resolve().then(check).catch(() => false)) {
      return;
    }
    await sleep(250);
  }
  throw new Error(`${what}: not ready within ${timeoutMs} ms`);
}

/** True once anything answers HTTP on the port (any status). */
export function answersHttp(port, pathName = "/") {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path: pathName, agent: false, timeout: 2000 }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on("error", () => resolve(false));
    req.on("timeout", () => req.destroy());
  });
}
