// A scripted OpenAI-compatible provider on 127.0.0.1 for the chat benchmark, streaming like the Java
// ScriptedProvider of the test tree: a role chunk, the reply in 4-character content chunks, a finish chunk, then
// `data: [DONE]`, each chunk flushed on its own with no delay; a blocking request gets the same reply as one JSON.
// Run as its own process (node scripted-provider.mjs PORT [REPLY]) so it does not share an event loop with the load
// client; REPLY replaces the default text (the NL->SQL benchmark has it answer with a SELECT).
import http from "node:http";

export const REPLY = "Switchboard relays this scripted reply four characters at a time, exactly as the provider sent it.";
const PIECE = 4;

const chunk = (model, choice) => `data: ${JSON.stringify({ id: "chatcmpl-scripted", object: "chat.completion.chunk",
  created: Math.floor(Date.now() / 1000), model, choices: choice ? [choice] : [] })}\n\n`;

function answer(response, body, reply) {
  const model = body.model ?? "scripted";
  if (!body.stream) {
    response.writeHead(200, { "Content-Type": "application/json" });
    response.end(JSON.stringify({ id: "chatcmpl-scripted", object: "chat.completion", created: Math.floor(Date.now() / 1000), model,
      choices: [{ index: 0, message: { role: "assistant", content: reply }, finish_reason: "stop" }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }));
    return;
  }
  response.writeHead(200, { "Content-Type": "text/event-stream" });
  response.write(chunk(model, { index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }));
  for (let i = 0; i < reply.length; i += PIECE) {
    response.write(chunk(model, { index: 0, delta: { content: reply.slice(i, i + PIECE) }, finish_reason: null }));
  }
  response.write(chunk(model, { index: 0, delta: {}, finish_reason: "stop" }));
  response.end("data: [DONE]\n\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.argv[2]);
  const reply = process.argv[3] ?? REPLY;
  http.createServer((request, response) => {
    const chunks = [];
    request.on("data", (c) => chunks.push(c));
    request.on("end", () => {
      if (request.method !== "POST" || !request.url.endsWith("/chat/completions")) {
        response.writeHead(404, { "Content-Type": "application/json" }).end('{"error":{"message":"not found"}}');
        return;
      }
      try {
        answer(response, JSON.parse(Buffer.concat(chunks).toString("utf8")), reply);
      } catch (e) {
        response.writeHead(400, { "Content-Type": "application/json" }).end(JSON.stringify({ error: { message: e.message } }));
      }
    });
  }).listen(port, "127.0.0.1", () => console.log(`scripted provider on 127.0.0.1:${port}`));
}
