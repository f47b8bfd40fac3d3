// The official OpenAI Node client against Switchboard's /api/chat/completions, unchanged: a blocking answer, a
// streamed one read chunk by chunk, and a streamed agent run read through the SDK's accumulating helper.
// Input: one JSON argument {baseURL, token, model, assistantId, blockingKey, streamKey, helperKey}; output: one JSON line.
const { OpenAI } = require('openai');

async function main() {
  const input = JSON.parse(process.argv[2]);
  const client = new OpenAI({ baseURL: input.baseURL, apiKey: input.token, maxRetries: 0, timeout: 30000 });
  const ask = (key) => [{ role: 'user', content: 'hello ' + key }];

  const blocking = await client.chat.completions.create({ model: input.model, messages: ask(input.blockingKey) });

  const stream = await client.chat.completions.create({
    model: input.model, messages: ask(input.streamKey), stream: true, stream_options: { include_usage: true },
  });
  const streamed = { text: '', chunks: 0, finish: null, usage: null, ids: new Set() };
  for await (const chunk of stream) {
    streamed.chunks++;
    streamed.ids.add(chunk.id);
    for (const choice of chunk.choices) {
      streamed.text += choice.delta?.content ?? '';
      streamed.finish = choice.finish_reason ?? streamed.finish;
    }
    streamed.usage = chunk.usage ?? streamed.usage;
  }

  const withAssistant = new OpenAI({
    baseURL: input.baseURL, apiKey: input.token, maxRetries: 0, timeout: 30000,
    defaultHeaders: { 'X-Assistant-Id': String(input.assistantId) },
  });
  const runner = withAssistant.chat.completions.stream({ model: input.model, messages: ask(input.helperKey) });
  const final = await runner.finalChatCompletion();

  console.log(JSON.stringify({
    blocking: {
      id: blocking.id, object: blocking.object, content: blocking.choices[0].message.content,
      finish: blocking.choices[0].finish_reason, totalTokens: blocking.usage.total_tokens,
    },
    streamed: { text: streamed.text, chunks: streamed.chunks, finish: streamed.finish, usage: streamed.usage, ids: streamed.ids.size },
    helper: {
      content: final.choices[0].message.content, finish: final.choices[0].finish_reason,
      toolCalls: (final.choices[0].message.tool_calls ?? []).length,
    },
  }));
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});
