// A recording tap between the gateway and a real MCP backend: it passes every byte through unchanged and appends
// every JSON-RPC message of both directions to a JSON-lines file in <record dir>, as
// {"conn": <backend session>, "from": "gateway" | "backend", "message": {...}} (or "raw": text when a line is not
// JSON), so a test can check what the gateway sent against the MCP schema of the version that backend negotiated.
// Usage: node backend-tap.mjs stdio <record dir> <command> [args...]   (the gateway starts this as the stdio backend)
//        node backend-tap.mjs http <port> <backend url> <record dir>   (the gateway is pointed at http://127.0.0.1:<port>/mcp)
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

const [mode, ...rest] = process.argv.slice(2);

function recorder(file) {
  return (conn, from, text) => {
    let entry;
    try { entry = { conn, from, message: JSON.parse(text) }; } catch { entry = { conn, from, raw: text }; }
    fs.appendFileSync(file, JSON.stringify(entry) + "\n");
  };
}

// calls onLine for every complete line of a stream of chunks
function lines(onLine) {
  let pending = "";
  return (chunk) => {
    pending += chunk.toString("utf8");
    let end;
    while ((end = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, end).replace(/\r$/, "");
      pending = pending.slice(end + 1);
      onLine(line);
    }
  };
}

function stdioTap([dir, command, ...args]) {
  const record = recorder(path.join(dir, `stdio-${process.pid}.jsonl`));
  const conn = `stdio-${process.pid}`;
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  const fromGateway = lines((line) => line && record(conn, "gateway", line));
  const fromBackend = lines((line) => line && record(conn, "backend", line));
  process.stdin.on("data", (chunk) => { fromGateway(chunk); child.stdin.write(chunk); });
  process.stdin.on("end", () => child.stdin.end());
  child.stdout.on("data", (chunk) => { fromBackend(chunk); process.stdout.write(chunk); });
  child.on("exit", (code) => process.exit(code ?? 1));
  process.on("SIGTERM", () => child.kill("SIGTERM"));
}

// headers of one hop that must not be forwarded
const HOP = new Set(["host", "connection", "upgrade", "http2-settings", "keep-alive", "transfer-encoding", "content-length"]);

function httpTap([port, backendUrl, dir]) {
  const record = recorder(path.join(dir, `http-${port}.jsonl`));
  const target = new URL(backendUrl);
  http.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    let conn = req.headers["mcp-session-id"] ?? null;
    let recorded = false;
    const recordRequest = () => {
      if (body.length && !recorded) record(conn ?? "none", "gateway", body.toString("utf8"));
      recorded = true;
    };
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !HOP.has(name)));
    if (body.length) headers["content-length"] = String(body.length);
    const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers },
      (answer) => {
        // initialize is the request without a session; its answer names the session
        conn = conn ?? answer.headers["mcp-session-id"] ?? "none";
        recordRequest();
        res.writeHead(answer.statusCode, Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP.has(name))));
        const sse = String(answer.headers["content-type"] ?? "").startsWith("text/event-stream");
        let data = [];
        const events = lines((line) => {
          if (line.startsWith("data:")) {
            data.push(line.slice(5).replace(/^ /, ""));
          } else if (line === "") {
            if (data.length && data.join("\n").trim()) record(conn, "backend", data.join("\n"));
            data = [];
          }
        });
        const json = [];
        answer.on("data", (chunk) => {
          if (sse) events(chunk); else json.push(chunk);
          res.write(chunk);
        });
        answer.on("end", () => {
          const text = Buffer.concat(json).toString("utf8");
          if (!sse && text.trim() && String(answer.headers["content-type"] ?? "").includes("json")) record(conn, "backend", text);
          res.end();
        });
      });
    upstream.on("error", (e) => { recordRequest(); if (!res.headersSent) res.writeHead(502); res.end(String(e)); });
    res.on("close", () => upstream.destroy());
    upstream.end(body);
  }).listen(Number(port), "127.0.0.1", () => process.stdout.write(`listening ${port}\n`));
}

if (mode === "stdio") stdioTap(rest);
else if (mode === "http") httpTap(rest);
else { process.stderr.write("usage: backend-tap.mjs stdio <dir> <command> [args...] | http <port> <backend url> <dir>\n"); process.exit(2); }
