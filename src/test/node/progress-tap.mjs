// Calls with progress through the official SDK client, each reported twice: as the transport received it (the
// call's progress notifications and its response, in arrival order) and as the SDK handed it to onprogress.
// The two differ when the SDK drops a progress that arrived just before the response: SDK 1.32's Protocol runs
// notification handlers a microtask later but handles a response at once and forgets its progress token then, so
// a progress read in the same batch as the response (one WebSocket chunk, one SSE chunk, one stdio chunk) reaches
// its handler after the token is gone and is reported through onerror as "progress notification for an unknown
// token" (typescript-sdk issue #2580). Such drops are counted per call so a test can tell them from a lost message.

const LABEL = "switchboard-it/call";
const UNKNOWN_TOKEN = "Received a progress notification for an unknown token: ";

// Taps the transport: must run before client.connect, whose wrapper of transport.onmessage calls ours first.
export function tapProgress(client, transport) {
  const received = [];
  const sent = new Map();
  const sdkErrors = [];
  transport.onmessage = (message) => received.push(message);
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const label = message.params?._meta?.[LABEL];
    if (label !== undefined) {
      sent.set(label, message.id);
    }
    return send(message, options);
  };
  client.onerror = (e) => sdkErrors.push(String(e?.message ?? e));
  let callCount = 0;

  // What the wire carried for the request with this id, progress values and "response" in arrival order.
  function wire(id) {
    return received.filter((m) => (m.method === "notifications/progress" && m.params?.progressToken === id)
      || (m.id === id && m.method === undefined)).map((m) => m.method ? m.params.progress : "response");
  }

  function droppedBySdk(id) {
    return sdkErrors.filter((e) => e.startsWith(UNKNOWN_TOKEN))
      .filter((e) => JSON.parse(e.substring(UNKNOWN_TOKEN.length)).params?.progressToken === id).length;
  }

  // calls not settled yet
  const outcomes = [];

  // One tools/call with progress: { result or error, progress (as the SDK delivered it) }, and wire and
  // droppedBySdk once settle() ran.
  async function call(name, args, options = {}) {
    const label = `call-${++callCount}`;
    const progress = [];
    const outcome = { label, progress };
    outcomes.push(outcome);
    try {
      outcome.result = await client.callTool({ name, arguments: args ?? {}, _meta: { [LABEL]: label } }, undefined,
        { timeout: 60000, ...options, onprogress: (p) => progress.push(p) });
    } catch (e) {
      outcome.error = { code: e?.code ?? null, message: String(e?.message ?? e) };
    }
    return outcome;
  }

  // rounds of `parallel` calls at once, every call's outcome
  async function calls(name, args, rounds, parallel) {
    const all = [];
    for (let round = 0; round < rounds; round++) {
      all.push(...(await Promise.all(Array.from({ length: parallel }, () => call(name, args)))));
    }
    return all;
  }

  // Fills in what the wire carried for every call made since the last settle, after a pause in which a progress
  // sent after its response (which would be a gateway bug) still arrives.
  async function settle() {
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const outcome of outcomes.splice(0)) {
      const id = sent.get(outcome.label);
      outcome.wire = wire(id);
      outcome.droppedBySdk = droppedBySdk(id);
      delete outcome.label;
    }
  }

  return { call, calls, settle, sdkErrors };
}
