// A client of seed 000's dialect over Switchboard's TCP transport (one JSON message per line), shaped like McpSession
// so lib/load.mjs drives it: initialize() negotiates 1.0.0 and authenticates with the token, callTool(method, params)
// sends one request and resolves with its result (rejects on an error answer).
import net from "node:net";

const REQUEST_TIMEOUT_MS = 15_000;

export class DialectSession {
  constructor(port, token) {
    this.port = port;
    this.token = token;
    this.socket = null;
    this.pending = new Map(); // id -> { resolve, reject, timer }
    this.nextId = 1;
    this.buffer = "";
  }

  async initialize() {
    await new Promise((resolve, reject) => {
      this.socket = net.connect({ host: "127.0.0.1", port: this.port }, resolve);
      this.socket.once("error", reject);
    });
    this.socket.setNoDelay(true);
    this.socket.setEncoding("utf8");
    this.socket.on("data", (text) => this.onData(text));
    this.socket.on("close", () => this.failAll(new Error("connection closed")));
    this.socket.on("error", (e) => this.failAll(e));
    await this.callTool("protocol.negotiate", { versions: ["1.0.0"] });
    await this.callTool("auth.authenticate", { token: this.token });
  }

  callTool(method, params) {
    const id = `b${this.nextId++}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method}: no answer within ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer, method });
      this.socket.write(`${JSON.stringify({ type: "request", id, method, params })}\n`);
    });
  }

  onData(text) {
    this.buffer += text;
    let end;
    while ((end = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 1);
      if (!line.trim()) {
        continue;
      }
      const message = JSON.parse(line);
      const waiter = this.pending.get(message.id);
      if (!waiter) {
        continue; // a notification (query.progress, system.status)
      }
      this.pending.delete(message.id);
      clearTimeout(waiter.timer);
      if (message.error) {
        waiter.reject(new Error(`${waiter.method}: ${message.error.code} ${message.error.message} ${JSON.stringify(message.error.data ?? {})}`));
      } else {
        waiter.resolve(message.result);
      }
    }
  }

  failAll(error) {
    for (const waiter of this.pending.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    this.pending.clear();
  }

  async close() {
    this.socket?.destroy();
  }
}
