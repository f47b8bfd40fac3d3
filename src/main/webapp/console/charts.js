// Small SVG charts for the overview: a card around a chart, line charts (gaps where a value is null) and bar charts
// (stacked when given several series), over a time axis. No chart library: the console works offline.
import { h } from './ui.js';

const W = 300;
const H = 90;

/**
 * A chart card: title, the headline value (display overrides how it is written), a line of legend or facts, then
 * the chart, or an empty-state sentence instead when there is nothing to draw.
 */
export function chartCard({ id, title, value, display, sub, chart, danger, empty }) {
    return h('article', { class: 'card chart-card', id, 'aria-labelledby': `${id}-title`, dataset: empty ? { empty: 'true' } : {} },
        h('div', { class: 'chart-head' }, h('h3', { id: `${id}-title` }, title),
            h('div', { class: `chart-value${danger ? ' danger' : ''}`, dataset: { value: value ?? '' } }, display ?? formatNumber(value))),
        h('div', { class: 'chart-sub' }, sub),
        empty ? h('p', { class: 'chart-empty' }, empty) : chart);
}

/** A coloured square and its label, for a chart card's sub line. */
export function legendItem(color, text) {
    return h('span', { class: 'legend-item' }, h('i', { style: `background:${color}` }), text);
}

export function formatNumber(n) {
    if (n === null || n === undefined || Number.isNaN(n)) return '—';
    return Number.isInteger(n) ? n.toLocaleString() : n.toFixed(n < 10 ? 1 : 0);
}

function svg(tag, attrs) {
    const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    return el;
}

/**
 * The time axis. With start and end given, exactly that span (e.g. the last hour); otherwise the last two minutes
 * at least, or everything sampled when that is longer.
 */
export function timeScale(times, { start, end } = {}) {
    const to = end ?? (times.length ? times[times.length - 1] : Date.now());
    const from = start ?? Math.min(times.length ? times[0] : to, to - 120_000);
    return { start: from, end: to, x: (t) => ((t - from) / Math.max(1, to - from)) * W };
}

function frame(scale, max, label, unit, body) {
    const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', class: 'chart', role: 'img', 'aria-label': label });
    for (const f of [0.25, 0.5, 0.75]) root.append(svg('line', { x1: 0, x2: W, y1: H * f, y2: H * f, class: 'grid-line' }));
    root.append(svg('line', { x1: 0, x2: W, y1: H - 0.5, y2: H - 0.5, class: 'axis-line' }));
    body(root);
    const span = Math.round((scale.end - scale.start) / 1000);
    return h('div', { class: 'chart-box' }, root,
        h('span', { class: 'chart-max', 'aria-hidden': 'true' }, formatNumber(max) + (unit ? ` ${unit}` : '')),
        h('div', { class: 'chart-axis', 'aria-hidden': 'true' }, h('span', {}, `${span >= 120 ? Math.round(span / 60) + ' min' : span + ' s'} ago`), h('span', {}, 'now')));
}

function niceMax(v) {
    if (v <= 1) return 1;
    const p = 10 ** Math.floor(Math.log10(v));
    for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
    return v;
}

function latest(values) {
    for (let i = values.length - 1; i >= 0; i--) if (values[i] !== null && values[i] !== undefined) return values[i];
    return 0;
}

/**
 * Lines over time, one per series ({label, color, values}); a null value leaves a gap (nothing was measured then).
 * Options: scale (see timeScale), unit (written next to the axis maximum).
 */
export function lineChart(times, series, label, { scale = timeScale(times), unit = '' } = {}) {
    const max = niceMax(Math.max(1, ...series.flatMap(s => s.values.filter(v => v !== null && v !== undefined))));
    const y = (v) => H - 2 - (v / max) * (H - 6);
    const said = series.map(s => `${s.label} ${formatNumber(latest(s.values))}${unit ? ' ' + unit : ''}`).join(', ');
    return frame(scale, max, `${label}: ${said}`, unit, (root) => {
        for (const s of [...series].reverse()) {
            if (!s.values.some(v => v > 0) && s.label !== series[0].label) continue;
            // runs of measured values; a lone value is drawn as a short level line so it shows
            const runs = [];
            let run = [];
            s.values.forEach((v, i) => {
                if (v === null || v === undefined) { if (run.length) runs.push(run); run = []; return; }
                run.push(`${scale.x(times[i]).toFixed(1)},${y(v).toFixed(1)}`);
            });
            if (run.length) runs.push(run);
            for (const pts of runs) {
                if (pts.length === 1) {
                    const [px, py] = pts[0].split(',').map(Number);
                    pts.unshift(`${Math.max(0, px - 4).toFixed(1)},${py.toFixed(1)}`);
                }
                const firstX = pts[0].split(',')[0];
                const lastX = pts[pts.length - 1].split(',')[0];
                root.append(svg('path', { d: `M${firstX},${H}L${pts.join('L')}L${lastX},${H}Z`, fill: s.color, 'fill-opacity': '.08', stroke: 'none' }));
                root.append(svg('polyline', { points: pts.join(' '), fill: 'none', stroke: s.color, 'stroke-width': 2, 'vector-effect': 'non-scaling-stroke', 'stroke-linejoin': 'round' }));
            }
        }
    });
}

/**
 * One bar per time (what happened in the step that ends then), placed at its time; several series ({label,
 * color, values}) are stacked. Options: scale, stepMs (the time one bar covers, for its width).
 */
export function barChart(times, series, label, { scale = timeScale(times), stepMs } = {}) {
    const totals = times.map((_, i) => series.reduce((a, s) => a + Math.max(0, s.values[i] || 0), 0));
    const max = niceMax(Math.max(1, ...totals));
    const bw = Math.max(2, ((stepMs || 1) / Math.max(1, scale.end - scale.start)) * W * 0.7);
    const said = series.length === 1
        ? `latest ${latest(series[0].values)}, highest ${Math.max(0, ...series[0].values)}`
        : series.map(s => `${s.label} ${s.values.reduce((a, v) => a + (v || 0), 0)} in all`).join(', ');
    return frame(scale, max, `${label}: ${said}`, '', (root) => {
        times.forEach((t, i) => {
            const xi = Math.min(W - bw, Math.max(0, scale.x(t) - bw));
            let base = H;
            for (const s of series) {
                const v = s.values[i] || 0;
                if (v <= 0) continue;
                const bh = Math.max(2, (v / max) * (H - 6));
                base -= bh;
                root.append(svg('rect', { x: xi.toFixed(1), y: base.toFixed(1), width: bw.toFixed(1), height: bh.toFixed(1), fill: s.color, rx: 1 }));
            }
        });
    });
}
