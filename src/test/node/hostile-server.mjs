// A stdio MCP server that answers with the hostile JSON documents of the corpus: a backend is not trusted.
// Tool "hostile" {doc, mode}: mode "answer" sends the document as the call's own answer (its params as the result);
// mode "before" sends the document as it is, then a proper answer "survived <doc>". Tool "echo" answers its arguments.
import readline from "node:readline";
import { hostileDocuments, asAnswer } from "./hostile-corpus.mjs";

const documents = new Map(hostileDocuments().map((d) => [d.name, d]));
const write = (bytes) => process.stdout.write(Buffer.concat([bytes, Buffer.from("\n")]));
const send = (message) => write(Buffer.from(JSON.stringify(message)));
const text = (value) => ({ content: [{ type: "text", text: value }] });

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  if (message.id === undefined || message.method === undefined) return;
  const answer = (result) => send({ jsonrpc: "2.0", id: message.id, result });
  switch (message.method) {
    case "initialize":
      return answer({ protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "hostile", version: "1.0.0" } });
    case "ping":
      return answer({});
    case "tools/list":
      return answer({ tools: [
        { name: "hostile", description: "answers with a hostile JSON document", inputSchema: { type: "object", properties: { doc: { type: "string" }, mode: { type: "string" } } } },
        { name: "echo", description: "answers its arguments", inputSchema: { type: "object" } },
      ] });
    case "tools/call": {
      const { name, arguments: args = {} } = message.params;
      if (name === "echo") return answer(text(JSON.stringify(args)));
      const document = documents.get(args.doc);
      if (!document) return answer({ ...text("no document " + args.doc), isError: true });
      if (args.mode === "answer") {
        const bytes = asAnswer(document, message.id);
        return bytes ? write(bytes) : answer({ ...text("no answer shape for " + args.doc), isError: true });
      }
      write(document.bytes);
      return answer(text("survived " + args.doc));
    }
    default:
      return send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "no method " + message.method } });
  }
});
