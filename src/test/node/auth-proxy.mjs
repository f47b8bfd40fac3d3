// Test-only: forwards every request to a target origin with a bearer token added, streaming both ways, so tools
// that cannot send an Authorization header (the MCP conformance suite) can reach Switchboard's protected /mcp.
// Usage: node auth-proxy.mjs <listen port> <target base, e.g. http://localhost:18080> <token>
import http from "node:http";

const [port, target, token] = process.argv.slice(2);
const base = new URL(target);

http.createServer((req, res) => {
  const headers = { ...req.headers, authorization: `Bearer ${token}` };
  const upstream = http.request(
    { hostname: base.hostname, port: base.port, path: req.url, method: req.method, headers },
    (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on("error", (e) => {
    res.writeHead(502, { "content-type": "text/plain" });
    res.end(String(e));
  });
  // the client went away before the answer ended (an SSE stream it closed): stop the upstream exchange too
  res.on("close", () => { if (!res.writableFinished) upstream.destroy(); });
  req.pipe(upstream);
}).listen(Number(port), "127.0.0.1", () => process.stdout.write(`listening ${port}\n`));
