// Starts Switchboard for a benchmark run: the WAR from target/ on the pinned Open Liberty runtime (unpacked once
// from the local Maven repository into the work dir), as its own server with its own user dir, port and fresh data
// dir, and a known admin password. Stopped with `server stop` when the run ends.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { answersHttp, onExit, waitFor } from "./processes.mjs";

const LIBERTY_VERSION = "26.0.0.3";
const H2_VERSION = "2.3.232";
const MYSQL_DRIVER_VERSION = "9.4.0";
const DEFAULT_SERVER_NAME = "switchboard-bench";
export const ADMIN_PASSWORD = "bench-admin-password";

/**
 * @param repoDir the project root, @param workDir bench work dir, @param port HTTP port,
 * @param properties further bootstrap properties (MicroProfile Config reads them), e.g. the LLM provider
 * @param serverName the Liberty server's name (also names its fresh data dir), for suites that start their own
 * @returns {{base, pid, logFile, token, stop}} stop() stops the server (it is also stopped when the run ends)
 */
export async function startSwitchboard({ repoDir, workDir, port, properties = {}, serverName = DEFAULT_SERVER_NAME }) {
  const war = path.join(repoDir, "target", "switchboard.war");
  if (!fs.existsSync(war)) {
    throw new Error(`${war} is missing: run 'mvn -DskipTests package' (bench/run.sh does)`);
  }
  if (await answersHttp(port)) {
    // another run's server would answer the health check and be measured instead of this one
    throw new Error(`port ${port} is already in use (another benchmark run?): wait for it, or pass --switchboard-port=N`);
  }
  const wlp = libertyRuntime(workDir);
  const userDir = path.join(workDir, "wlp-usr");
  const serverDir = path.join(userDir, "servers", serverName);
  const dataDir = path.join(workDir, serverName === DEFAULT_SERVER_NAME ? "switchboard-data" : `${serverName}-data`);
  fs.rmSync(serverDir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(path.join(serverDir, "apps"), { recursive: true });
  fs.mkdirSync(path.join(serverDir, "lib", "jdbc"), { recursive: true });
  fs.copyFileSync(path.join(repoDir, "src", "main", "liberty", "config", "server.xml"), path.join(serverDir, "server.xml"));
  fs.copyFileSync(war, path.join(serverDir, "apps", "switchboard.war"));
  // the server's JDBC library, as the build's copyDependencies gives it: H2 and MySQL/MariaDB (a suite may query MariaDB)
  fs.copyFileSync(mavenArtifact("com/h2database/h2", H2_VERSION, "jar"), path.join(serverDir, "lib", "jdbc", "h2.jar"));
  fs.copyFileSync(mavenArtifact("com/mysql/mysql-connector-j", MYSQL_DRIVER_VERSION, "jar"),
    path.join(serverDir, "lib", "jdbc", "mysql-connector-j.jar"));
  const bootstrap = {
    "http.port": port,
    "switchboard.data-dir": dataDir,
    "switchboard.admin.password": ADMIN_PASSWORD,
    "query.tcp.port": 0,
    ...properties,
  };
  // without a keystore password Liberty creates no default keystore, and its MicroProfile JWT configuration (which
  // depends on the SSL service) never activates: every token is then refused with a bare 401
  fs.writeFileSync(path.join(serverDir, "server.env"), `keystore_password=${crypto.randomBytes(18).toString("base64url")}\n`);
  fs.writeFileSync(path.join(serverDir, "bootstrap.properties"),
    Object.entries(bootstrap).map(([key, value]) => `${key}=${value}`).join("\n") + "\n");

  // the project's jvm.options when it has one, plus BENCH_JVM_OPTIONS (space separated) for experiments
  const projectJvmOptions = path.join(repoDir, "src", "main", "liberty", "config", "jvm.options");
  const jvmOptions = [
    ...(fs.existsSync(projectJvmOptions) ? fs.readFileSync(projectJvmOptions, "utf8").split("\n") : []),
    ...(process.env.BENCH_JVM_OPTIONS ?? "").split(" "),
  ].map((line) => line.trim()).filter(Boolean);
  fs.writeFileSync(path.join(serverDir, "jvm.options"), jvmOptions.join("\n") + "\n");

  const env = { ...process.env, WLP_USER_DIR: userDir };
  const server = path.join(wlp, "bin", "server");
  let running = true;
  const stop = () => {
    if (running) {
      running = false;
      execFileSync(server, ["stop", serverName], { env, stdio: "ignore" });
    }
  };
  onExit(stop);
  execFileSync(server, ["start", serverName], { env, stdio: "ignore" });
  const base = `http://127.0.0.1:${port}`;
  // a start takes 15 s on a quiet machine, but minutes on one busy with builds
  await waitFor("Switchboard /health", async () => (await fetch(`${base}/health`)).ok, 480_000);
  return {
    base,
    pid: Number(fs.readFileSync(path.join(userDir, "servers", ".pid", `${serverName}.pid`), "utf8").trim()),
    logFile: path.join(serverDir, "logs", "messages.log"),
    token: await userToken(base, "admin", ADMIN_PASSWORD),
    stop,
  };
}

/** The unpacked Open Liberty runtime in the work dir, unpacked from the Maven repository's zip on first use. */
function libertyRuntime(workDir) {
  const wlp = path.join(workDir, `openliberty-${LIBERTY_VERSION}`, "wlp");
  if (!fs.existsSync(path.join(wlp, "bin", "server"))) {
    const zip = mavenArtifact("io/openliberty/openliberty-runtime", LIBERTY_VERSION, "zip");
    console.log(`unpacking Open Liberty ${LIBERTY_VERSION} into ${path.dirname(wlp)} (once)`);
    fs.mkdirSync(path.dirname(wlp), { recursive: true });
    execFileSync("unzip", ["-q", "-o", zip, "-d", path.dirname(wlp)], { stdio: "inherit" });
  }
  return wlp;
}

function mavenArtifact(groupPath, version, type) {
  const artifact = path.basename(groupPath);
  const repo = process.env.MAVEN_REPO ?? path.join(os.homedir(), ".m2", "repository");
  const file = path.join(repo, groupPath, version, `${artifact}-${version}.${type}`);
  if (!fs.existsSync(file)) {
    // `mvn package` does not fetch the runtime (only the liberty:create of `liberty:run` and `verify` do)
    const coordinates = `${path.dirname(groupPath).replaceAll("/", ".")}:${artifact}:${version}:${type}`;
    console.log(`fetching ${coordinates} into ${repo} (once)`);
    execFileSync("mvn", ["-B", "-ntp", "-q", `-Dmaven.repo.local=${repo}`, "dependency:get", `-Dartifact=${coordinates}`],
      { stdio: "inherit" });
  }
  return file;
}

/** An access token from `/api/auth/token` for a local user. */
export async function userToken(base, username, password) {
  const response = await fetch(`${base}/api/auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  if (!response.ok) {
    throw new Error(`token of ${username}: HTTP ${response.status} ${await response.text()}`);
  }
  return (await response.json()).access_token;
}

/** POSTs JSON to the REST API as the admin; fails with the answer's body on any non-2xx status. */
export function api(switchboard, pathName, body) {
  return request(switchboard, "POST", pathName, body);
}

/**
 * Any REST call, as the admin unless `token` is given; resolves with the parsed answer, fails with the answer's body
 * on any non-2xx status.
 */
export async function request(switchboard, method, pathName, body, token = switchboard.token) {
  const response = await fetch(`${switchboard.base}${pathName}`, {
    method,
    headers: { ...(body === undefined ? {} : { "Content-Type": "application/json" }), Authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`${method} ${pathName}: HTTP ${response.status} ${text}`);
  }
  return text ? JSON.parse(text) : null;
}
