// Overview, the landing page: health from /health, small live charts of the connection pool from
// /metrics?scope=application (Prometheus text), sampled every few seconds while the page is open, and for admins
// the last hour of tool calls, failures and latency per minute from /api/metrics/timeline (the server samples its
// cumulative metrics). Charts are SVG (../charts.js); no chart library.
import { api, operations } from '../api.js';
import { barChart, chartCard, legendItem, lineChart, timeScale } from '../charts.js';
import { alertBox, describeError, h, icon, plural, relativeTime } from '../ui.js';

const SAMPLE_MS = 4000;
const KEEP = 150; // 10 minutes of samples
const STATES = [
    { id: 'connected', label: 'Connected', color: '#1fae62' },
    { id: 'connecting', label: 'Connecting', color: '#e0a020' },
    { id: 'error', label: 'Error', color: '#c0262d' },
    { id: 'disconnected', label: 'Idle', color: '#9a9cb3' },
];
// kept across visits of the page, so coming back shows the recent past too
const samples = [];

/** Prometheus text exposition -> [{name, labels, value}] (comments and blank lines skipped). */
export function parsePrometheus(text) {
    const out = [];
    for (const raw of text.split('\n')) {
        const line = raw.trim();
        if (!line || line.startsWith('#')) continue;
        const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)/.exec(line);
        if (!m) continue;
        const labels = {};
        if (m[3]) for (const l of m[3].matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
        const value = Number(m[4]);
        if (!Number.isNaN(value)) out.push({ name: m[1], labels, value });
    }
    return out;
}

function pick(metrics, base) {
    return metrics.filter(m => m.name === base || m.name.startsWith(base + '_') && !m.name.slice(base.length + 1).includes('_'));
}

export async function render(main, ctx) {
    const healthBox = h('div', { class: 'health-row', id: 'health', 'aria-live': 'polite' }, h('div', { class: 'skeleton', style: 'height:74px' }));
    const stats = h('div', { class: 'stat-row', id: 'stats' },
        stat('stat-servers', '#/servers', 'MCP servers'), stat('stat-assistants', '#/assistants', 'Assistants'), stat('stat-conversations', '#/chat', 'Conversations'));
    const charts = h('div', { class: 'chart-grid', id: 'charts' });
    const metricsError = h('div', { 'aria-live': 'assertive' });
    const sampledAt = h('span', { class: 'hint', id: 'sampled-at' }, 'Sampling…');
    const recent = ctx.isAdmin ? recentSection() : null;
    main.append(h('div', { class: 'page' },
        h('header', { class: 'page-head' },
            h('div', {}, h('h1', {}, `Welcome, ${ctx.me.subject}`),
                h('p', {}, 'How Switchboard and the MCP servers behind it are doing right now.')),
            h('div', { class: 'page-actions' }, sampledAt)),
        h('section', { class: 'section', 'aria-labelledby': 'health-heading' },
            h('h2', { id: 'health-heading', class: 'section-label' }, 'Health'), healthBox),
        h('section', { class: 'section', 'aria-labelledby': 'yours-heading' },
            h('h2', { id: 'yours-heading', class: 'section-label' }, 'Yours'), stats),
        recent ? recent.section : null,
        h('section', { class: 'section', 'aria-labelledby': 'pool-heading' },
            h('div', { class: 'section-title' }, h('h2', { id: 'pool-heading', class: 'section-label' }, 'Connection pool'),
                h('span', { class: 'hint' }, `Sampled every ${SAMPLE_MS / 1000} s while this page is open`)),
            metricsError, charts),
        h('section', { class: 'quick-links', 'aria-label': 'Shortcuts' },
            shortcut('#/chat', 'chat', 'Open the chat', 'Talk to an assistant and watch its tool calls'),
            shortcut('#/servers', 'server', 'MCP servers', 'Register, test and tune your servers'),
            ctx.isAdmin ? shortcut('#/gateway', 'gateway', 'Gateway', 'Shared backends and the tools behind /mcp') : shortcut('#/assistants', 'bot', 'Assistants', 'Models, prompts and tools'))));

    let timer = null;
    await Promise.all([health(), sample(), counts(), recent ? recent.refresh() : null]);

    async function counts() {
        const [servers, assistants, conversations] = await Promise.allSettled(
            ['/mcp-servers', '/assistants', '/conversations'].map(path => api.get(path).then(r => r.data)));
        fill('stat-servers', servers, list => {
            const connected = list.filter(x => x.status === 'connected').length;
            const failing = list.filter(x => x.status === 'error').length;
            return [`${connected} connected`, failing ? `${failing} failing` : null, `${list.filter(x => x.scope === 'shared').length} shared`].filter(Boolean).join(' · ');
        });
        fill('stat-assistants', assistants, list => `${list.filter(a => (a.mcpServerIds || []).length).length} with tools`);
        fill('stat-conversations', conversations, list => list.length ? `last ${relativeTime(list[0].updatedAt)}` : 'none yet');
    }

    function fill(id, outcome, describe) {
        const tile = document.getElementById(id);
        if (!tile) return;
        const value = tile.querySelector('.stat-value');
        const sub = tile.querySelector('.stat-sub');
        if (outcome.status === 'fulfilled') {
            value.textContent = outcome.value.length.toLocaleString();
            value.dataset.value = outcome.value.length;
            sub.textContent = describe(outcome.value);
        } else {
            value.textContent = '—';
            sub.textContent = describeError(outcome.reason).headline;
        }
    }

    async function health() {
        let answer;
        try {
            answer = await operations('/health');
        } catch (err) {
            healthBox.replaceChildren(alertBox(err, 'Health is not available'));
            return;
        }
        const json = answer.json || { status: answer.status === 200 ? 'UP' : 'DOWN', checks: [] };
        const checks = json.checks || [];
        const up = json.status === 'UP';
        healthBox.replaceChildren(
            h('div', { class: `card health-card overall ${up ? 'up' : 'down'}`, id: 'health-overall', dataset: { status: json.status } },
                h('span', { class: 'health-icon', 'aria-hidden': 'true' }, icon(up ? 'checkCircle' : 'alert', 22)),
                h('div', {}, h('div', { class: 'health-title' }, up ? 'All systems go' : 'Something is down'),
                    h('div', { class: 'health-sub' }, `${plural(checks.filter(c => c.status === 'UP').length, 'check')} of ${checks.length} up`))),
            ...checks.map(c => h('div', { class: `card health-card ${c.status === 'UP' ? 'up' : 'down'}`, dataset: { check: c.name } },
                h('span', { class: `dot ${c.status === 'UP' ? 'connected' : 'error'}`, 'aria-hidden': 'true' }),
                h('div', {}, h('div', { class: 'health-title' }, humanCheck(c.name)),
                    h('div', { class: 'health-sub' }, c.status === 'UP' ? 'Up' : 'Down', c.data ? ' · ' + Object.entries(c.data).slice(0, 2).map(([k, v]) => `${k} ${v}`).join(', ') : '')))));
    }

    async function sample() {
        if (!charts.isConnected) return;
        try {
            const { text } = await operations('/metrics?scope=application');
            const metrics = parsePrometheus(text);
            const connections = {};
            for (const m of pick(metrics, 'switchboard_pool_connections')) {
                const state = m.labels.state || 'total';
                connections[state] = (connections[state] || 0) + m.value;
            }
            const sum = (base) => pick(metrics, base).reduce((a, m) => a + m.value, 0);
            samples.push({ t: Date.now(), connections, calls: sum('switchboard_pool_calls'), failed: sum('switchboard_pool_failed_calls') });
            while (samples.length > KEEP) samples.shift();
            metricsError.replaceChildren();
            draw();
            sampledAt.textContent = `Updated ${new Date().toLocaleTimeString()}`;
        } catch (err) {
            metricsError.replaceChildren(alertBox(err, 'Metrics are not available'));
        }
        clearTimeout(timer);
        if (charts.isConnected) timer = setTimeout(() => { sample(); }, SAMPLE_MS);
    }

    function draw() {
        const last = samples[samples.length - 1];
        const times = samples.map(s => s.t);
        const totalNow = STATES.reduce((a, s) => a + (last.connections[s.id] || 0), 0);
        const rate = (key) => samples.map((s, i) => i === 0 ? 0 : Math.max(0, s[key] - samples[i - 1][key]));
        const calls = rate('calls');
        const failed = rate('failed');
        // the first sample at least a minute old (or the oldest there is) against the latest
        const base = [...samples].reverse().find(x => last.t - x.t >= 60_000) || samples[0];
        const recentCalls = last.calls - base.calls;
        const recentFailed = last.failed - base.failed;
        const failurePct = last.calls ? (100 * last.failed / last.calls) : 0;
        charts.replaceChildren(
            chartCard({
                id: 'chart-connections', title: 'Open connections', value: totalNow,
                sub: STATES.map(s => legendItem(s.color, `${s.label} ${last.connections[s.id] || 0}`)),
                chart: lineChart(times, STATES.map(s => ({ label: s.label, color: s.color, values: samples.map(x => x.connections[s.id] || 0) })), 'Connections by state'),
            }),
            chartCard({
                id: 'chart-calls', title: 'Tool calls', value: last.calls,
                sub: [h('span', {}, `${recentCalls} in the last minute`)],
                chart: barChart(times, [{ label: 'Tool calls', color: '#4f46e5', values: calls }], 'Tool calls per sample', { stepMs: SAMPLE_MS }),
            }),
            chartCard({
                id: 'chart-failures', title: 'Failed calls', value: last.failed, danger: last.failed > 0,
                sub: [h('span', {}, `${failurePct.toFixed(failurePct && failurePct < 10 ? 1 : 0)} % of all calls · ${recentFailed} in the last minute`)],
                chart: barChart(times, [{ label: 'Failed calls', color: '#c0262d', values: failed }], 'Failed tool calls per sample', { stepMs: SAMPLE_MS }),
            }));
    }
}

const TIMELINE_MS = 20_000;
const SERIES = [
    { id: 'gateway', label: 'Gateway', color: '#4f46e5', errorColor: '#c0262d' },
    { id: 'chat', label: 'Chat tools', color: '#22a39f', errorColor: '#e0a020' },
];

/**
 * GET /api/metrics/timeline as chart data: one entry per point at its end time, the axis spanning the asked window
 * on the server's clock, latency null where nothing was timed, and empty when no call was made in the window.
 */
export function timelineView(json) {
    const points = json.points || [];
    const times = points.map(p => Date.parse(p.end));
    const of = (id, key) => points.map(p => (p[id] || {})[key] ?? (key === 'meanLatencyMs' ? null : 0));
    const series = Object.fromEntries(SERIES.map(s => [s.id, {
        calls: of(s.id, 'calls'), errors: of(s.id, 'errors'), latency: of(s.id, 'meanLatencyMs'),
    }]));
    const totals = json.totals || {};
    const sum = (key) => SERIES.reduce((a, s) => a + ((totals[s.id] || {})[key] || 0), 0);
    const minutes = json.minutes || 60;
    return {
        times, series, totals,
        calls: sum('calls'),
        errors: sum('errors'),
        meanLatencyMs: (totals.all || {}).meanLatencyMs ?? null,
        empty: sum('calls') === 0,
        scale: timeScale(times, { start: Date.parse(json.from), end: Date.parse(json.now) }),
        stepMs: (json.intervalSeconds || 60) * 1000,
        title: minutes === 60 ? 'Last hour' : `Last ${plural(minutes, 'minute')}`,
        window: minutes === 60 ? 'the last hour' : `the last ${plural(minutes, 'minute')}`,
        interval: json.intervalSeconds === 60 ? 'minute' : `${json.intervalSeconds} s`,
        // sampling began inside the window: the server started less than the window ago
        since: Date.parse(json.sampledSince) > Date.parse(json.from) ? new Date(json.sampledSince) : null,
    };
}

/** The admins' "last hour" section: calls, failed calls and mean latency per interval, refreshed while shown. */
function recentSection() {
    const grid = h('div', { class: 'chart-grid', id: 'timeline-charts' },
        h('div', { class: 'skeleton', style: 'height:170px' }), h('div', { class: 'skeleton', style: 'height:170px' }), h('div', { class: 'skeleton', style: 'height:170px' }));
    const error = h('div', { 'aria-live': 'assertive' });
    const hint = h('span', { class: 'hint', id: 'timeline-hint' }, 'Gateway tools/call and chat tool calls, from the server’s metrics');
    const heading = h('h2', { id: 'timeline-heading', class: 'section-label' }, 'Last hour');
    const section = h('section', { class: 'section', 'aria-labelledby': 'timeline-heading' },
        h('div', { class: 'section-title' }, heading, hint), error, grid);
    let timer = null;

    async function refresh() {
        if (!section.isConnected) return;
        clearTimeout(timer);
        try {
            draw(timelineView(await api.get('/metrics/timeline')));
            error.replaceChildren();
        } catch (err) {
            error.replaceChildren(alertBox(err, 'The call history is not available'));
        }
        timer = setTimeout(() => { if (section.isConnected) refresh(); }, TIMELINE_MS);
    }

    function draw(v) {
        heading.textContent = v.title;
        hint.textContent = `Gateway tools/call and chat tool calls per ${v.interval}`
            + (v.since ? `, since the server started at ${v.since.toLocaleTimeString()}` : '')
            + ` · updated ${new Date().toLocaleTimeString()}`;
        const opts = { scale: v.scale, stepMs: v.stepMs };
        const noCalls = `No tool calls in ${v.window}. Calls through /mcp and tool calls of chats show here as they happen.`;
        const legend = (key, unit = '') => SERIES.map(s => {
            const value = (v.totals[s.id] || {})[key];
            return legendItem(s.color, `${s.label} ${value === null || value === undefined ? '—' : Math.round(value).toLocaleString() + unit}`);
        });
        const pct = v.calls ? 100 * v.errors / v.calls : 0;
        grid.replaceChildren(
            chartCard({
                id: 'chart-timeline-calls', title: 'Tool calls', value: v.calls,
                sub: legend('calls'), empty: v.empty ? noCalls : null,
                chart: barChart(v.times, SERIES.map(s => ({ label: s.label, color: s.color, values: v.series[s.id].calls })),
                    `Tool calls per ${v.interval} over ${v.window}`, opts),
            }),
            chartCard({
                id: 'chart-timeline-errors', title: 'Failed calls', value: v.errors, danger: v.errors > 0,
                sub: [h('span', {}, `${pct.toFixed(pct && pct < 10 ? 1 : 0)} % of calls`), ...legend('errors')],
                empty: v.empty ? 'Nothing failed: nothing was called.' : null,
                chart: barChart(v.times, SERIES.map(s => ({ label: s.label, color: s.errorColor, values: v.series[s.id].errors })),
                    `Failed calls per ${v.interval} over ${v.window}`, opts),
            }),
            chartCard({
                id: 'chart-timeline-latency', title: 'Mean latency', value: v.meanLatencyMs,
                display: v.meanLatencyMs === null ? '—' : `${Math.round(v.meanLatencyMs).toLocaleString()} ms`,
                sub: legend('meanLatencyMs', ' ms'), empty: v.empty ? 'No call was timed.' : null,
                chart: lineChart(v.times, SERIES.map(s => ({ label: s.label, color: s.color, values: v.series[s.id].latency })),
                    `Mean latency per ${v.interval} over ${v.window}`, { scale: v.scale, unit: 'ms' }),
            }));
    }

    return { section, refresh };
}

function humanCheck(name) {
    return ({ database: 'Database', 'switchboard-database': 'Database', live: 'Alive' })[name] || name.replace(/[-_]/g, ' ').replace(/^./, c => c.toUpperCase());
}

function stat(id, href, label) {
    return h('a', { class: 'card stat', id, href },
        h('span', { class: 'stat-label' }, label),
        h('span', { class: 'stat-value' }, h('span', { class: 'spinner', 'aria-hidden': 'true' })),
        h('span', { class: 'stat-sub' }, '\u00a0'));
}

function shortcut(href, iconName, title, text) {
    return h('a', { class: 'card shortcut', href }, h('span', { class: 'shortcut-icon', 'aria-hidden': 'true' }, icon(iconName, 20)),
        h('span', {}, h('strong', {}, title), h('small', {}, text)), icon('chevron', 16));
}

