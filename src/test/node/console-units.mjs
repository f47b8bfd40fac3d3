#!/usr/bin/env node
// Unit checks of the console's pure parts, run by node (no browser): the SSE reader the chat stream and the MCP
// client use, and the Prometheus text parser of the overview. Exits non-zero on the first failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readEventStream } from '../../main/webapp/console/api.js';
import { parsePrometheus } from '../../main/webapp/console/pages/overview.js';

function streamOf(text, size) {
    const encoder = new TextEncoder();
    return new Response(new ReadableStream({
        start(controller) {
            for (let i = 0; i < text.length; i += size) controller.enqueue(encoder.encode(text.slice(i, i + size)));
            controller.close();
        },
    }));
}

test('SSE events are read whole however the bytes are cut, with CRLF or LF, comments skipped', async () => {
    const text = 'data: {"type":"content","delta":{"content":"h\u00e9"}}\r\n\r\n'
        + 'event: assistant.toolCall.updated\r\ndata: {"type":"tool_call_updated","toolCall":{"id":"a"}}\r\n\r\n'
        + ': keep-alive\n\ndata: line one\ndata: line two\n\ndata: [DONE]\n\n';
    for (const size of [1, 2, 3, 5, 64, 4096]) {
        const events = [];
        await readEventStream(streamOf(text, size), e => events.push(e));
        assert.deepEqual(events.map(e => e.event), ['message', 'assistant.toolCall.updated', 'message', 'message'], `cut every ${size}`);
        assert.equal(events[0].data.delta.content, 'h\u00e9');
        assert.equal(events[1].data.toolCall.id, 'a');
        assert.equal(events[2].text, 'line one\nline two');
        assert.equal(events[2].data, undefined);
        assert.equal(events[3].text, '[DONE]');
    }
});

test('an event without the final blank line is still delivered', async () => {
    const events = [];
    await readEventStream(streamOf('data: {"id":1,"result":{}}\r', 4), e => events.push(e));
    assert.equal(events.length, 1);
    assert.equal(events[0].data.id, 1);
});

test('Prometheus text: names, labels (with escapes) and values; comments and junk skipped', () => {
    const metrics = parsePrometheus([
        '# HELP switchboard_pool_connections Pooled connections',
        '# TYPE switchboard_pool_connections gauge',
        'switchboard_pool_connections{mp_scope="application",state="connected",} 2.0',
        'switchboard_pool_connections{state="error",mp_scope="application"} 1',
        'switchboard_pool_calls{mp_scope="application"} 12 1700000000000',
        'odd_label{path="a \\"quoted\\" one"} 3',
        'not a metric line',
        '',
    ].join('\n'));
    assert.deepEqual(metrics.map(m => [m.name, m.labels.state || null, m.value]), [
        ['switchboard_pool_connections', 'connected', 2],
        ['switchboard_pool_connections', 'error', 1],
        ['switchboard_pool_calls', null, 12],
        ['odd_label', null, 3],
    ]);
    assert.equal(metrics[3].labels.path, 'a \\"quoted\\" one');
});
