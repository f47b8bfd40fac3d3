// The gateway page's aggregated tools (GET /api/gateway/tools): searched, filtered and paged by the server, so the
// page stays short with hundreds of tools. A row is one line: the public name (backend__tool) and the first line of
// the description; its details (the whole description, arguments, annotations, input schema) open on click. "Load more"
// follows the API's cursor; a new search or filter starts over, and the answer of an older one is dropped.
import { api } from '../api.js';
import { alertBox, button, h, plural } from '../ui.js';
import { params } from './tools.js';

const PAGE_SIZE = 15;
const SEARCH_DELAY_MS = 250;
const ANNOTATIONS = [
    { value: 'readOnly', label: 'Read-only', hint: 'readOnlyHint' },
    { value: 'destructive', label: 'Destructive', hint: 'destructiveHint' },
    { value: 'idempotent', label: 'Idempotent', hint: 'idempotentHint' },
    { value: 'openWorld', label: 'Open world', hint: 'openWorldHint' },
];

export function toolsPanel() {
    const search = h('input', { type: 'search', id: 'gateway-tool-search', placeholder: 'Search name or description', maxlength: 200,
        'aria-label': 'Search gateway tools by name or description', autocomplete: 'off', spellcheck: 'false' });
    const server = h('select', { id: 'gateway-tool-server', 'aria-label': 'Backend of the tools' }, h('option', { value: '' }, 'All backends'));
    const annotation = h('select', { id: 'gateway-tool-annotation', 'aria-label': 'Annotation of the tools' },
        h('option', { value: '' }, 'Any annotation'), ANNOTATIONS.map(a => h('option', { value: a.value }, a.label)));
    const status = h('select', { id: 'gateway-tool-status', 'aria-label': 'Whether /mcp offers the tools' },
        h('option', { value: '' }, 'Offered or hidden'), h('option', { value: 'offered' }, 'Offered by /mcp'),
        h('option', { value: 'hidden' }, 'Hidden by policy'));
    const count = h('span', { class: 'count', id: 'gateway-tool-count', 'aria-live': 'polite' });
    const facts = h('p', { id: 'gateway-tools-facts' }, 'What an MCP client of your tenant is offered at /mcp, listed by the server.');
    const error = h('div', { id: 'gateway-tools-error' });
    const missing = h('div', { id: 'gateway-tools-missing' });
    const body = h('tbody');
    const table = h('table', { class: 'data', id: 'gateway-tool-table' },
        h('caption', { class: 'sr-only' }, 'Tools offered by the gateway, by public name; each row opens its details'),
        h('colgroup', {}, h('col', { class: 'col-tool' }), h('col'), h('col', { class: 'col-details' })),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Tool (backend__tool)'),
            h('th', { scope: 'col' }, 'Description'), h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Details')))),
        body);
    const more = button('Load more', { id: 'gateway-tool-more', hidden: true, onClick: () => fetchPage(more) });
    const reload = button('Reload', { kind: 'ghost', size: 'sm', iconName: 'refresh', id: 'gateway-reload', onClick: () => restart() });
    const section = h('section', { class: 'card section', 'aria-labelledby': 'gw-tools-heading', id: 'gateway-tools' },
        h('div', { class: 'section-head' }, h('div', {}, h('h2', { id: 'gw-tools-heading' }, 'Aggregated tools'), facts), reload),
        h('form', { class: 'toolbar', role: 'search', 'aria-label': 'Search and filter the gateway tools', onsubmit: (e) => { e.preventDefault(); restart(); } },
            search, server, annotation, status, count),
        error, missing,
        h('div', { class: 'table-wrap' }, table),
        h('div', { class: 'load-more' }, more));

    let timer = null;
    search.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(restart, SEARCH_DELAY_MS); });
    for (const select of [server, annotation, status]) select.addEventListener('change', () => restart());

    let shown = [];
    let cursor = null;
    let total = 0;
    let loadNo = 0; // a new search makes the answers of earlier ones stale
    let backends = [];

    async function restart() {
        clearTimeout(timer);
        loadNo++;
        shown = [];
        cursor = null;
        body.replaceChildren(h('tr', {}, h('td', { colspan: 3 }, h('div', { class: 'loading' },
            h('span', { class: 'spinner', 'aria-hidden': 'true' }), 'Listing the tools of every shared backend…'))));
        await fetchPage(reload);
    }

    async function fetchPage(btn) {
        const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
        if (search.value.trim()) query.set('q', search.value.trim());
        for (const [name, select] of [['server', server], ['annotation', annotation], ['status', status]]) {
            if (select.value) query.set(name, select.value);
        }
        if (cursor) query.set('cursor', cursor);
        const mine = loadNo;
        const started = performance.now();
        btn.disabled = true;
        table.setAttribute('aria-busy', 'true');
        try {
            const page = await api.get(`/gateway/tools?${query}`);
            if (mine !== loadNo) return;
            error.replaceChildren();
            shown = shown.concat(page.data);
            cursor = page.nextCursor || null;
            total = page.total;
            backends = page.backends;
            drawBackends(Math.round(performance.now() - started));
            draw();
        } catch (err) {
            if (mine !== loadNo) return;
            if (!shown.length) { body.replaceChildren(); count.textContent = ''; }
            error.replaceChildren(h('div', { class: 'section-body' }, alertBox(err, 'The gateway did not list its tools')));
        } finally {
            btn.disabled = false;
            if (mine === loadNo) table.removeAttribute('aria-busy');
        }
    }

    /** The backend filter's choices with their counts, the facts line, and the backends whose tools are missing. */
    function drawBackends(millis) {
        const chosen = server.value;
        const listed = backends.reduce((sum, b) => sum + b.toolCount, 0);
        server.replaceChildren(h('option', { value: '' }, `All backends (${listed})`),
            ...backends.map(b => h('option', { value: b.name, selected: b.name === chosen },
                b.answered ? `${b.name} (${b.toolCount})` : `${b.name} (no answer)`)));
        if (chosen && !backends.some(b => b.name === chosen)) {
            server.append(h('option', { value: chosen, selected: true }, `${chosen} (gone)`));
        }
        facts.textContent = `${plural(listed, 'tool')} from ${plural(backends.length, 'shared backend')}, listed in ${millis} ms`;
        const silent = backends.filter(b => !b.answered);
        missing.replaceChildren(...(silent.length ? [h('div', { class: 'section-body' }, h('div', { class: 'alert warn', role: 'status' },
            h('div', {}, h('strong', {}, `${plural(silent.length, 'backend')} did not list tools in time`),
                h('span', {}, ` ${silent.map(b => b.name).join(', ')}: their tools are missing here and on /mcp until they answer.`))))] : []));
    }

    function draw() {
        more.hidden = !cursor;
        count.textContent = total ? `${shown.length} of ${plural(total, 'tool')}` : '0 tools';
        count.dataset.total = String(total);
        table.dataset.total = String(total);
        if (!shown.length) {
            const filtered = search.value.trim() || server.value || annotation.value || status.value;
            body.replaceChildren(h('tr', {}, h('td', { colspan: 3 }, h('div', { class: 'empty', style: 'padding:28px' },
                h('h2', {}, filtered ? 'No tool matches' : 'No tools behind the gateway'),
                h('p', {}, filtered ? 'Nothing matches this search and these filters. Clear them to see every tool.'
                    : 'Share an active MCP server with your tenant; its enabled tools appear here as backend__tool.')))));
            return;
        }
        body.replaceChildren(...shown.flatMap(row));
    }

    return {
        section,
        start: restart,
        /** Shows the tools of one backend (a backend card's link), by its registry id. */
        showServer(serverId) {
            const backend = backends.find(b => b.serverId === String(serverId));
            if (!backend) return;
            server.value = backend.name;
            search.value = '';
            restart();
            section.scrollIntoView({ block: 'start' });
        },
    };
}

/** A tool's summary row and its details row, shut until the summary's button opens it. */
function row(t) {
    const detailsId = `tool-details-${t.name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
    const details = h('tr', { class: 'tool-details', id: detailsId, hidden: true },
        h('td', { colspan: 3 }, detailsOf(t)));
    const toggle = h('button', { type: 'button', class: 'btn btn-ghost btn-sm tool-toggle', 'aria-expanded': 'false',
        'aria-controls': detailsId, 'aria-label': `Details of ${t.name}`, onclick: () => {
            const open = details.hidden;
            details.hidden = !open;
            toggle.setAttribute('aria-expanded', String(open));
            summary.classList.toggle('open', open);
        } }, 'Details');
    const firstLine = (t.description || '').split('\n').find(line => line.trim()) || '';
    // one line each: a long name or description ends in an ellipsis, shown whole in its title and in the details
    const summary = h('tr', { class: 'tool-row', dataset: { publicName: t.name, status: t.status } },
        h('td', {}, h('div', { class: 'tool-name one-line', title: t.name }, h('span', { class: 'tool-backend' }, `${t.backend}__`), t.tool)),
        h('td', {}, h('div', { class: 'tool-desc one-line', title: firstLine || null },
            t.status === 'hidden' ? h('span', { class: 'badge warn', title: 'The tenant policy\u2019s tool allowlist leaves it out of tools/list on /mcp' }, 'hidden by policy') : null,
            firstLine || h('span', { class: 'muted' }, 'No description'))),
        h('td', { class: 'num' }, toggle));
    return [summary, details];
}

function detailsOf(t) {
    const hints = t.annotations || {};
    const declared = ANNOTATIONS.filter(a => typeof hints[a.hint] === 'boolean');
    return h('div', { class: 'tool-detail' },
        h('dl', { class: 'kv-list' },
            h('dt', {}, 'Backend tool'), h('dd', { class: 'mono' }, `${t.tool} on ${t.backend}`),
            t.title ? [h('dt', {}, 'Title'), h('dd', {}, t.title)] : null,
            h('dt', {}, 'Description'), h('dd', { class: 'tool-description' }, t.description || h('span', { class: 'muted' }, 'No description')),
            h('dt', {}, 'Arguments'), h('dd', {}, params(t.inputSchema) || h('span', { class: 'muted' }, 'None')),
            h('dt', {}, 'Annotations'), h('dd', {}, declared.length
                ? h('div', { class: 'badges', style: 'margin-top:0' }, declared.map(a => h('span', { class: `badge ${hints[a.hint] ? 'accent' : ''}` }, `${a.label}: ${hints[a.hint] ? 'yes' : 'no'}`)))
                : h('span', { class: 'muted' }, 'None declared')),
            h('dt', {}, 'On /mcp'), h('dd', {}, t.status === 'hidden' ? 'Hidden by the tenant policy\u2019s tool allowlist' : 'Offered')),
        t.inputSchema ? h('details', { class: 'tool-schema' }, h('summary', {}, 'Input schema'),
            h('pre', { class: 'mono' }, JSON.stringify(t.inputSchema, null, 2))) : null);
}
