#!/usr/bin/env node
// Unit checks of the console's pure parts, run by node (no browser): the SSE reader the chat stream and the MCP
// client use, the Prometheus text parser of the overview and its reading of /api/metrics/timeline. Exits non-zero on
// the first failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readEventStream } from '../../main/webapp/console/api.js';
import { parsePrometheus, timelineView } from '../../main/webapp/console/pages/overview.js';

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

test('SSE ids: each event carries the last id set, a block with only an id sets it without being dispatched', async () => {
    const text = 'id: 17-0\nretry: 2000\n: conversation 5\n\n'
        + 'id: 17-1\nevent: assistant.toolCall.updated\ndata: {"toolCallId":"a"}\n\n'
        + ': keep-alive\n\nevent: tool.message.updated\ndata: {"toolCalls":[]}\n\nid: 17-3\n\n';
    for (const size of [1, 7, 4096]) {
        const events = [];
        const ids = [];
        const last = await readEventStream(streamOf(text, size), e => events.push(e), { lastEventId: '9-9', onId: id => ids.push(id) });
        assert.deepEqual(events.map(e => [e.event, e.id]), [['assistant.toolCall.updated', '17-1'], ['tool.message.updated', '17-1']], `cut every ${size}`);
        assert.deepEqual(ids, ['17-0', '17-1', '17-3'], 'every id set, the one of a block without data too');
        assert.equal(last, '17-3', 'resolves with the last id set');
    }
    assert.equal(await readEventStream(streamOf(': nothing\n\n', 4), () => {}, { lastEventId: '9-9' }), '9-9', 'no id set: the one it resumed from');
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

const idle = { calls: 0, errors: 0, meanLatencyMs: null };

test('the call timeline with no traffic reads as empty: no latency, nothing to stack', () => {
    const view = timelineView({
        now: '2026-11-22T10:00:00Z', from: '2026-11-22T09:00:00Z', minutes: 60, intervalSeconds: 60,
        sampledSince: '2026-11-22T08:00:00Z',
        points: [
            { start: '2026-11-22T09:58:00Z', end: '2026-11-22T09:59:00Z', partial: false, gateway: idle, chat: idle },
            { start: '2026-11-22T09:59:00Z', end: '2026-11-22T10:00:00Z', partial: true, gateway: idle, chat: idle },
        ],
        totals: { gateway: idle, chat: idle, all: idle },
    });
    assert.equal(view.empty, true);
    assert.equal(view.calls, 0);
    assert.equal(view.meanLatencyMs, null);
    assert.deepEqual(view.series.gateway.latency, [null, null], 'no call is no latency, not zero');
    assert.equal(view.window, 'the last hour');
    assert.equal(view.title, 'Last hour');
    assert.equal(view.interval, 'minute');
    assert.equal(view.since, null, 'sampling began before the window');
    assert.equal(view.scale.start, Date.parse('2026-11-22T09:00:00Z'), 'the axis is the asked window on the server clock');
    assert.equal(view.scale.end, Date.parse('2026-11-22T10:00:00Z'));
});

test('the call timeline with traffic: one bar per point at its end, both series, the overall mean', () => {
    const view = timelineView({
        now: '2026-11-22T10:00:20Z', from: '2026-11-22T09:45:20Z', minutes: 15, intervalSeconds: 5,
        sampledSince: '2026-11-22T09:50:00Z',
        points: [
            { start: '2026-11-22T09:59:55Z', end: '2026-11-22T10:00:00Z', partial: false,
                gateway: { calls: 4, errors: 1, meanLatencyMs: 12.5 }, chat: idle },
            { start: '2026-11-22T10:00:00Z', end: '2026-11-22T10:00:20Z', partial: true,
                gateway: idle, chat: { calls: 2, errors: 1, meanLatencyMs: 300 } },
        ],
        totals: { gateway: { calls: 4, errors: 1, meanLatencyMs: 12.5 }, chat: { calls: 2, errors: 1, meanLatencyMs: 300 },
            all: { calls: 6, errors: 2, meanLatencyMs: 108.33 } },
    });
    assert.equal(view.empty, false);
    assert.deepEqual(view.times, [Date.parse('2026-11-22T10:00:00Z'), Date.parse('2026-11-22T10:00:20Z')]);
    assert.deepEqual(view.series.gateway.calls, [4, 0]);
    assert.deepEqual(view.series.chat.errors, [0, 1]);
    assert.deepEqual(view.series.chat.latency, [null, 300]);
    assert.equal(view.calls, 6);
    assert.equal(view.errors, 2);
    assert.equal(view.meanLatencyMs, 108.33);
    assert.equal(view.window, 'the last 15 minutes');
    assert.equal(view.title, 'Last 15 minutes');
    assert.equal(view.interval, '5 s');
    assert.equal(view.stepMs, 5000);
    assert.equal(view.since.toISOString(), '2026-11-22T09:50:00.000Z', 'the server started inside the window');
});
