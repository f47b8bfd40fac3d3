// Overview, the landing page: health from /health and small live charts of the connection pool from
// /metrics?scope=application (Prometheus text), sampled every few seconds while the page is open. Charts are SVG
// drawn here; no chart library.
import { api, operations } from '../api.js';
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
    main.append(h('div', { class: 'page' },
        h('header', { class: 'page-head' },
            h('div', {}, h('h1', {}, `Welcome, ${ctx.me.subject}`),
                h('p', {}, 'How Switchboard and the MCP servers behind it are doing right now.')),
            h('div', { class: 'page-actions' }, sampledAt)),
        h('section', { class: 'section', 'aria-labelledby': 'health-heading' },
            h('h2', { id: 'health-heading', class: 'section-label' }, 'Health'), healthBox),
        h('section', { class: 'section', 'aria-labelledby': 'yours-heading' },
            h('h2', { id: 'yours-heading', class: 'section-label' }, 'Yours'), stats),
        h('section', { class: 'section', 'aria-labelledby': 'pool-heading' },
            h('div', { class: 'section-title' }, h('h2', { id: 'pool-heading', class: 'section-label' }, 'Connection pool'),
                h('span', { class: 'hint' }, `Sampled every ${SAMPLE_MS / 1000} s while this page is open`)),
            metricsError, charts),
        h('section', { class: 'quick-links', 'aria-label': 'Shortcuts' },
            shortcut('#/chat', 'chat', 'Open the chat', 'Talk to an assistant and watch its tool calls'),
            shortcut('#/servers', 'server', 'MCP servers', 'Register, test and tune your servers'),
            ctx.isAdmin ? shortcut('#/gateway', 'gateway', 'Gateway', 'Shared backends and the tools behind /mcp') : shortcut('#/assistants', 'bot', 'Assistants', 'Models, prompts and tools'))));

    let timer = null;
    await Promise.all([health(), sample(), counts()]);

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
                sub: STATES.map(s => h('span', { class: 'legend-item' }, h('i', { style: `background:${s.color}` }), `${s.label} ${last.connections[s.id] || 0}`)),
                chart: lineChart(times, STATES.map(s => ({ label: s.label, color: s.color, values: samples.map(x => x.connections[s.id] || 0) })), 'Connections by state'),
            }),
            chartCard({
                id: 'chart-calls', title: 'Tool calls', value: last.calls,
                sub: [h('span', {}, `${recentCalls} in the last minute`)],
                chart: barChart(times, calls, '#4f46e5', 'Tool calls per sample'),
            }),
            chartCard({
                id: 'chart-failures', title: 'Failed calls', value: last.failed, danger: last.failed > 0,
                sub: [h('span', {}, `${failurePct.toFixed(failurePct && failurePct < 10 ? 1 : 0)} % of all calls · ${recentFailed} in the last minute`)],
                chart: barChart(times, failed, '#c0262d', 'Failed tool calls per sample'),
            }));
    }
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

function chartCard({ id, title, value, sub, chart, danger }) {
    return h('article', { class: 'card chart-card', id, 'aria-labelledby': `${id}-title` },
        h('div', { class: 'chart-head' }, h('h3', { id: `${id}-title` }, title),
            h('div', { class: `chart-value${danger ? ' danger' : ''}`, dataset: { value } }, formatNumber(value))),
        h('div', { class: 'chart-sub' }, sub),
        chart);
}

function formatNumber(n) {
    return Number.isInteger(n) ? n.toLocaleString() : n.toFixed(1);
}

const W = 300;
const H = 90;

function svg(tag, attrs) {
    const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    return el;
}

/** The time axis: the last two minutes at least, or everything sampled when that is longer. */
function timeScale(times) {
    const end = times.length ? times[times.length - 1] : Date.now();
    const start = Math.min(times.length ? times[0] : end, end - 120_000);
    return { start, end, x: (t) => ((t - start) / Math.max(1, end - start)) * W };
}

function frame(scale, max, label, body) {
    const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', class: 'chart', role: 'img', 'aria-label': label });
    for (const f of [0.25, 0.5, 0.75]) root.append(svg('line', { x1: 0, x2: W, y1: H * f, y2: H * f, class: 'grid-line' }));
    root.append(svg('line', { x1: 0, x2: W, y1: H - 0.5, y2: H - 0.5, class: 'axis-line' }));
    body(root);
    const span = Math.round((scale.end - scale.start) / 1000);
    return h('div', { class: 'chart-box' }, root,
        h('span', { class: 'chart-max', 'aria-hidden': 'true' }, formatNumber(max)),
        h('div', { class: 'chart-axis', 'aria-hidden': 'true' }, h('span', {}, `${span >= 120 ? Math.round(span / 60) + ' min' : span + ' s'} ago`), h('span', {}, 'now')));
}

function niceMax(v) {
    if (v <= 1) return 1;
    const p = 10 ** Math.floor(Math.log10(v));
    for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
    return v;
}

function lineChart(times, series, label) {
    const max = niceMax(Math.max(1, ...series.flatMap(s => s.values)));
    const scale = timeScale(times);
    const y = (v) => H - 2 - (v / max) * (H - 6);
    return frame(scale, max, `${label}: ${series.map(s => `${s.label} ${s.values[s.values.length - 1] || 0}`).join(', ')}`, (root) => {
        for (const s of [...series].reverse()) {
            if (!s.values.some(v => v > 0) && s.label !== series[0].label) continue;
            const pts = s.values.map((v, i) => `${scale.x(times[i]).toFixed(1)},${y(v).toFixed(1)}`);
            if (pts.length === 1) pts.unshift(`${(W - 2).toFixed(1)},${y(s.values[0]).toFixed(1)}`);
            const firstX = pts[0].split(',')[0];
            const lastX = pts[pts.length - 1].split(',')[0];
            root.append(svg('path', { d: `M${firstX},${H}L${pts.join('L')}L${lastX},${H}Z`, fill: s.color, 'fill-opacity': '.08', stroke: 'none' }));
            root.append(svg('polyline', { points: pts.join(' '), fill: 'none', stroke: s.color, 'stroke-width': 2, 'vector-effect': 'non-scaling-stroke', 'stroke-linejoin': 'round' }));
        }
    });
}

/** One bar per sample (what happened since the one before), placed at its time. */
function barChart(times, values, color, label) {
    const max = niceMax(Math.max(1, ...values));
    const scale = timeScale(times);
    const bw = Math.max(2, (SAMPLE_MS / Math.max(1, scale.end - scale.start)) * W * 0.7);
    return frame(scale, max, `${label}: latest ${values[values.length - 1] || 0}, highest ${Math.max(0, ...values)}`, (root) => {
        values.forEach((v, i) => {
            if (v <= 0) return;
            const bh = Math.max(2, (v / max) * (H - 6));
            const xi = Math.min(W - bw, Math.max(0, scale.x(times[i]) - bw));
            root.append(svg('rect', { x: xi.toFixed(1), y: (H - bh).toFixed(1), width: bw.toFixed(1), height: bh.toFixed(1), fill: color, rx: 1 }));
        });
    });
}
