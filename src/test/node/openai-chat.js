// The official OpenAI Node client against Switchboard's /api/chat/completions, unchanged: a blocking answer, a
// streamed one read chunk by chunk, and a streamed agent run read through the SDK's accumulating helper.
// Input: one JSON argument {baseURL, token, model, assistantId, blockingKey, streamKey, helperKey}; output: one JSON line.
//
// With "mode": "approvals" ({baseURL, token, model, assistantId, approveKey, rejectKey, session}): two streamed agent
// runs whose tool call waits for approval, one read chunk by chunk, one through the accumulating helper. When a run's
// call is announced as pending, a line {"pending": {run, messageId, toolCallId}} goes to stdout and the stream is read
// on while someone else confirms the call; the last line is {"result": ...}.
const { OpenAI } = require('openai');

async function main() {
  const input = JSON.parse(process.argv[2]);
  if (input.mode === 'approvals') {
    return approvals(input);
  }
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

/** Notes a call announced as pending (seed 004's event, which the SDK hands on as a chunk) and tells the confirmer. */
function watchForPending(run, chunk, seen) {
  if (chunk.type !== 'tool_call_updated') {
    return;
  }
  seen.statuses.push(chunk.toolCall.status);
  if (chunk.toolCall.status === 'pending' && !seen.announced) {
    seen.announced = true;
    process.stdout.write(JSON.stringify({ pending: { run, messageId: chunk.messageId, toolCallId: chunk.toolCall.id } }) + '\n');
  }
}

async function approvals(input) {
  const client = new OpenAI({
    baseURL: input.baseURL, apiKey: input.token, maxRetries: 0, timeout: 60000,
    defaultHeaders: { 'X-Assistant-Id': String(input.assistantId) },
  });
  const ask = (key) => [{ role: 'user', content: 'run the tool ' + key }];

  const approved = { text: '', finish: null, statuses: [], announced: false, toolChoices: 0 };
  const stream = await client.chat.completions.create({
    model: input.model, messages: ask(input.approveKey), stream: true, session_id: input.session + '-approve',
  });
  for await (const chunk of stream) {
    watchForPending('approve', chunk, approved);
    for (const choice of chunk.choices) {
      approved.text += choice.delta?.content ?? '';
      approved.finish = choice.finish_reason ?? approved.finish;
      approved.toolChoices += (choice.delta?.tool_calls ?? []).length;
    }
  }

  const rejected = { statuses: [], announced: false };
  const runner = client.chat.completions.stream({ model: input.model, messages: ask(input.rejectKey), session_id: input.session + '-reject' });
  runner.on('chunk', (chunk) => watchForPending('reject', chunk, rejected));
  const final = await runner.finalChatCompletion();

  process.stdout.write(JSON.stringify({
    result: {
      approved: { text: approved.text, finish: approved.finish, statuses: approved.statuses, toolChoices: approved.toolChoices },
      rejected: {
        content: final.choices[0].message.content, finish: final.choices[0].finish_reason,
        toolCalls: (final.choices[0].message.tool_calls ?? []).length, statuses: rejected.statuses,
      },
    },
  }) + '\n');
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});
