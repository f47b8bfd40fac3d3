// A small, safe Markdown subset for chat answers, built as DOM nodes (never innerHTML): paragraphs, headings,
// bullet and numbered lists, fenced code blocks, block quotes, and inline code, bold, italic and http(s) links.
// Whatever it does not understand stays as text, so a half-streamed answer renders sensibly at every step.
import { h } from './ui.js';

export function renderMarkdown(text) {
    const out = [];
    const lines = text.replace(/\r\n?/g, '\n').split('\n');
    let i = 0;
    while (i < lines.length) {
        const line = lines[i];
        const fence = /^\s*(```|~~~)\s*([\w+-]*)\s*$/.exec(line);
        if (fence) {
            const body = [];
            i++;
            while (i < lines.length && !lines[i].trim().startsWith(fence[1])) body.push(lines[i++]);
            i++; // the closing fence (or the end of a block still streaming)
            out.push(h('pre', { class: 'md-code', dataset: fence[2] ? { lang: fence[2] } : {} }, h('code', {}, body.join('\n'))));
            continue;
        }
        if (!line.trim()) { i++; continue; }
        const heading = /^(#{1,4})\s+(.*)$/.exec(line);
        if (heading) {
            out.push(h(`h${Math.min(6, heading[1].length + 2)}`, { class: 'md-h' }, inline(heading[2])));
            i++;
            continue;
        }
        if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
            const ordered = /^\s*\d+[.)]\s+/.test(line);
            const list = h(ordered ? 'ol' : 'ul', { class: 'md-list' });
            while (i < lines.length && /^\s*([-*+]|\d+[.)])\s+/.test(lines[i])) {
                const item = lines[i].replace(/^\s*([-*+]|\d+[.)])\s+/, '');
                const more = [];
                i++;
                while (i < lines.length && /^\s{2,}\S/.test(lines[i]) && !/^\s*([-*+]|\d+[.)])\s+/.test(lines[i])) more.push(lines[i++].trim());
                list.append(h('li', {}, inline([item, ...more].join(' '))));
            }
            out.push(list);
            continue;
        }
        if (/^\s*>/.test(line)) {
            const quoted = [];
            while (i < lines.length && /^\s*>/.test(lines[i])) quoted.push(lines[i++].replace(/^\s*>\s?/, ''));
            out.push(h('blockquote', { class: 'md-quote' }, renderMarkdown(quoted.join('\n'))));
            continue;
        }
        const para = [];
        while (i < lines.length && lines[i].trim() && !/^\s*(```|~~~|#{1,4}\s|>|[-*+]\s|\d+[.)]\s)/.test(lines[i])) para.push(lines[i++]);
        if (!para.length) para.push(lines[i++]);
        const p = h('p', {});
        para.forEach((l, n) => { if (n) p.append(h('br')); p.append(...inline(l)); });
        out.push(p);
    }
    return out;
}

const INLINE = /(`[^`]+`)|(\*\*[^*]+\*\*|__[^_]+__)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]+\]\((https?:\/\/[^\s)]+)\))/;

function inline(text) {
    const nodes = [];
    let rest = text;
    while (rest) {
        const m = INLINE.exec(rest);
        if (!m) { nodes.push(rest); break; }
        if (m.index) nodes.push(rest.slice(0, m.index));
        const token = m[0];
        if (m[1]) nodes.push(h('code', { class: 'md-inline' }, token.slice(1, -1)));
        else if (m[2]) nodes.push(h('strong', {}, inline(token.slice(2, -2))));
        else if (m[3]) nodes.push(h('em', {}, inline(token.slice(1, -1))));
        else if (m[4]) {
            const label = token.slice(1, token.indexOf(']('));
            nodes.push(h('a', { href: m[5], target: '_blank', rel: 'noopener noreferrer' }, label));
        }
        rest = rest.slice(m.index + token.length);
    }
    return nodes;
}
