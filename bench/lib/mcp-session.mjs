// Lean MCP clients for load, one per simulated client. Deliberately not the official SDK: its per-message schema
// validation would weigh on the figures being compared, and it must be the same code for every target.
// - McpSession: Streamable HTTP; node:http with one keep-alive socket per session (every target sees the same
//   connection pattern), JSON-RPC over POST, answers taken as JSON or from an SSE body.
// - LegacySseSession: the 2024-11-05 HTTP+SSE transport (GET opens the event stream, POSTs go to the endpoint it
//   names and are answered on the stream), for gateways that speak only that (mcp-hub).
import http from "node:http";

// The current revision, which Switchboard also speaks to its backends: a client on an older one would measure a
// different backend. server-everything (TypeScript SDK 1.32) answers a 2025-11-25 session about 1.3 ms later than a
// 2025-06-18 one at 1 client (its SSE answers then start with a priming event for resumption; bench/README.md).
export const PROTOCOL_VERSION = process.env.BENCH_PROTOCOL_VERSION ?? "2025-11-25";
export const LEGACY_PROTOCOL_VERSION = "2024-11-05";
const REQUEST_TIMEOUT_MS = 15_000;

export class McpSession {
  /** @param {string} url the MCP endpoint, @param {object} headers extra headers (e.g. Authorization) */
  constructor(url, headers = {}) {
    this.url = new URL(url);
    this.headers = headers;
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    this.sessionId = null;
    this.protocolVersion = null;
    this.nextId = 1;
  }

  async initialize() {
    const answer = await this.request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "switchboard-bench", version: "1.0.0" },
    });
    this.protocolVersion = answer.protocolVersion;
    await this.notify("notifications/initialized");
    return answer;
  }

  /** Calls a tool; resolves with the result, rejects on a JSON-RPC error or a result flagged isError. */
  async callTool(name, args) {
    const result = await this.request("tools/call", { name, arguments: args });
    if (result?.isError) {
      throw new Error(`tool ${name} failed: ${JSON.stringify(result.content).slice(0, 200)}`);
    }
    return result;
  }

  async listTools() {
    return (await this.request("tools/list", {})).tools;
  }

  async request(method, params) {
    const id = this.nextId++;
    const { status, headers, body } = await this.post({ jsonrpc: "2.0", id, method, params });
    if (status !== 200) {
      throw new Error(`${method}: HTTP ${status} ${body.slice(0, 200)}`);
    }
    if (headers["mcp-session-id"]) {
      this.sessionId = headers["mcp-session-id"];
    }
    const answer = findAnswer(headers["content-type"] ?? "", body, id);
    if (!answer) {
      throw new Error(`${method}: no answer with id ${id} in ${body.slice(0, 200)}`);
    }
    if (answer.error) {
      throw new Error(`${method}: JSON-RPC error ${answer.error.code} ${answer.error.message}`);
    }
    return answer.result;
  }

  async notify(method, params) {
    const { status, body } = await this.post({ jsonrpc: "2.0", method, ...(params ? { params } : {}) });
    if (status !== 202 && status !== 200 && status !== 204) {
      throw new Error(`${method}: HTTP ${status} ${body.slice(0, 200)}`);
    }
  }

  /** Ends the session (DELETE) and closes the socket; failures do not matter any more here. */
  async close() {
    if (this.sessionId) {
      await this.send("DELETE", null).catch(() => {});
    }
    this.agent.destroy();
  }

  post(message) {
    return this.send("POST", JSON.stringify(message));
  }

  send(method, payload) {
    const headers = {
      ...this.headers,
      Accept: "application/json, text/event-stream",
      ...(payload ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) } : {}),
      ...(this.sessionId ? { "Mcp-Session-Id": this.sessionId } : {}),
      ...(this.protocolVersion ? { "MCP-Protocol-Version": this.protocolVersion } : {}),
    };
    return new Promise((resolve, reject) => {
      const req = http.request(
        { agent: this.agent, host: this.url.hostname, port: this.url.port, path: this.url.pathname + this.url.search, method, headers, timeout: REQUEST_TIMEOUT_MS },
        (res) => {
          const chunks = [];
          res.on("data", (chunk) => chunks.push(chunk));
          res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
          res.on("error", reject);
        });
      req.on("timeout", () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
      req.on("error", reject);
      req.end(payload ?? undefined);
    });
  }
}

/**
 * MCP 2026-07-28, the stateless era: no initialize and no session; every request carries the version and the client's
 * capabilities in `_meta` and mirrors its method (and tool name) in headers. "initialize" here is `server/discover`.
 */
export class StatelessSession extends McpSession {
  static VERSION = "2026-07-28";

  async initialize() {
    return this.request("server/discover", {});
  }

  async request(method, params) {
    this.method = method;
    this.name = params?.name ?? params?.uri ?? null;
    return super.request(method, { ...params, _meta: { ...params?._meta,
      "io.modelcontextprotocol/protocolVersion": StatelessSession.VERSION,
      "io.modelcontextprotocol/clientInfo": { name: "switchboard-bench", version: "1.0.0" },
      "io.modelcontextprotocol/clientCapabilities": {} } });
  }

  async close() {
    this.agent.destroy();
  }

  send(method, payload) {
    this.protocolVersion = StatelessSession.VERSION;
    this.headers = { ...this.headers, "Mcp-Method": this.method };
    if (this.name) {
      this.headers["Mcp-Name"] = this.name;
    } else {
      delete this.headers["Mcp-Name"];
    }
    return super.send(method, payload);
  }
}

/** The JSON-RPC answer with the given id, from a JSON body or from the `data:` lines of an SSE body. */
function findAnswer(contentType, body, id) {
  if (contentType.startsWith("text/event-stream")) {
    for (const event of body.split(/\r?\n\r?\n/)) {
      const data = event.split(/\r?\n/).filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trimStart()).join("\n");
      if (data) {
        const message = JSON.parse(data);
        if (message.id === id && ("result" in message || "error" in message)) {
          return message;
        }
      }
    }
    return null;
  }
  const message = JSON.parse(body);
  return Array.isArray(message) ? message.find((m) => m.id === id) : message;
}

export class LegacySseSession {
  constructor(url, headers = {}) {
    this.url = new URL(url);
    this.headers = headers;
    this.streamAgent = new http.Agent({ keepAlive: false });
    this.postAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    this.pending = new Map(); // request id -> { resolve, reject }
    this.nextId = 1;
    this.stream = null;
    this.endpoint = null;
  }

  async initialize() {
    this.endpoint = await this.openStream();
    const answer = await this.request("initialize", {
      protocolVersion: LEGACY_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "switchboard-bench", version: "1.0.0" },
    });
    await this.notify("notifications/initialized");
    return answer;
  }

  callTool(name, args) {
    return McpSession.prototype.callTool.call(this, name, args);
  }

  async listTools() {
    return (await this.request("tools/list", {})).tools;
  }

  /** Opens the GET event stream; resolves with the POST endpoint from its `endpoint` event. */
  openStream() {
    return new Promise((resolve, reject) => {
      const req = http.request({ agent: this.streamAgent, host: this.url.hostname, port: this.url.port,
        path: this.url.pathname + this.url.search, method: "GET", headers: { ...this.headers, Accept: "text/event-stream" } }, (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`GET ${this.url.pathname}: HTTP ${res.statusCode}`));
          res.resume();
          return;
        }
        let buffer = "";
        res.setEncoding("utf8");
        res.on("data", (text) => {
          buffer += text;
          let end;
          while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
            const event = buffer.slice(0, end);
            buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
            this.onEvent(event, resolve);
          }
        });
        res.on("end", () => this.failAll(new Error("event stream ended")));
      });
      req.on("error", (e) => { reject(e); this.failAll(e); });
      req.end();
      this.stream = req;
    });
  }

  onEvent(event, resolveEndpoint) {
    const lines = event.split(/\r?\n/);
    const type = lines.find((line) => line.startsWith("event:"))?.slice(6).trim() ?? "message";
    const data = lines.filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trimStart()).join("\n");
    if (type === "endpoint") {
      resolveEndpoint(new URL(data, this.url));
    } else if (type === "message" && data) {
      const message = JSON.parse(data);
      const waiter = this.pending.get(message.id);
      if (waiter && ("result" in message || "error" in message)) {
        this.pending.delete(message.id);
        waiter.resolve(message);
      }
    }
  }

  failAll(error) {
    for (const waiter of this.pending.values()) {
      waiter.reject(error);
    }
    this.pending.clear();
  }

  async request(method, params) {
    const id = this.nextId++;
    const answered = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
    await this.post({ jsonrpc: "2.0", id, method, params });
    const answer = await answered;
    if (answer.error) {
      throw new Error(`${method}: JSON-RPC error ${answer.error.code} ${answer.error.message}`);
    }
    return answer.result;
  }

  notify(method) {
    return this.post({ jsonrpc: "2.0", method });
  }

  post(message) {
    const payload = JSON.stringify(message);
    return new Promise((resolve, reject) => {
      const req = http.request({ agent: this.postAgent, host: this.endpoint.hostname, port: this.endpoint.port,
        path: this.endpoint.pathname + this.endpoint.search, method: "POST", timeout: REQUEST_TIMEOUT_MS,
        headers: { ...this.headers, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) } }, (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => res.statusCode < 300 ? resolve() : reject(new Error(`${message.method}: HTTP ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 200)}`)));
      });
      req.on("timeout", () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
      req.on("error", reject);
      req.end(payload);
    });
  }

  async close() {
    this.stream?.destroy();
    this.streamAgent.destroy();
    this.postAgent.destroy();
  }
}
