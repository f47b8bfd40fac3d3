// Gateway (admins): the shared backends behind /mcp with their live status, the live MCP sessions with the backend
// sessions they hold (./gateway-sessions.js), and the aggregated tool list as MCP clients see it, read by speaking
// MCP to /mcp from the browser (initialize, tools/list across pages, DELETE).
import { api, mcpSession } from '../api.js';
import { adminOnlyNotice, alertBox, button, h, icon, plural } from '../ui.js';
import { sessionsPanel } from './gateway-sessions.js';
import { endpointText, TYPE_LABELS } from './servers.js';

const POLL_MS = 5000;

export async function render(main, ctx) {
    if (!ctx.isAdmin) {
        main.append(adminOnlyNotice('gateway', 'The gateway page is for admins',
            'Ask an admin of your tenant to share MCP servers through the gateway; you can use it at ', h('code', {}, `${location.origin}/mcp`), ' with your API key.'));
        return;
    }
    const endpoint = `${location.origin}/mcp`;
    const backends = h('div', { class: 'grid backend-grid', id: 'backend-list', 'aria-live': 'polite' },
        h('div', { class: 'skeleton', style: 'height:120px' }), h('div', { class: 'skeleton', style: 'height:120px' }));
    const toolsBody = h('div', { id: 'gateway-tools' }, h('div', { class: 'loading' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), 'Opening an MCP session on /mcp and listing its tools…'));
    const sessionFacts = h('p', { id: 'gateway-session' }, 'What an MCP client sees at this endpoint, listed by this page over MCP itself.');
    const reload = button('Reload', { kind: 'ghost', size: 'sm', iconName: 'refresh', id: 'gateway-reload', onClick: () => listTools() });
    const sessions = sessionsPanel(ctx);

    main.append(h('div', { class: 'page' },
        h('header', { class: 'page-head' },
            h('div', {}, h('h1', {}, 'Gateway'),
                h('p', {}, 'One MCP endpoint that aggregates every active shared server of your tenant. Point any MCP client at it with a bearer token or API key.')),
            h('div', { class: 'endpoint-box' }, h('span', { class: 'label' }, 'Endpoint'), h('code', { id: 'gateway-endpoint' }, endpoint))),
        h('section', { class: 'section', 'aria-labelledby': 'backends-heading' },
            h('div', { class: 'section-title' }, h('h2', { id: 'backends-heading' }, 'Shared backends'),
                h('span', { class: 'hint', id: 'backends-updated' }, 'Live status, refreshed every few seconds')),
            backends),
        sessions.section,
        h('section', { class: 'card section', 'aria-labelledby': 'gw-tools-heading' },
            h('div', { class: 'section-head' }, h('div', {}, h('h2', { id: 'gw-tools-heading' }, 'Aggregated tools'), sessionFacts), reload),
            toolsBody)));

    let timer = null;
    await Promise.all([pollBackends(), sessions.start(), listTools()]);

    async function pollBackends() {
        if (!backends.isConnected) return;
        try {
            const all = (await api.get('/mcp-servers')).data;
            drawBackends(all.filter(s => s.scope === 'shared'));
            document.getElementById('backends-updated').textContent = `Live status · updated ${new Date().toLocaleTimeString()}`;
        } catch (err) {
            backends.replaceChildren(alertBox(err, 'Could not load the shared servers'));
        }
        clearTimeout(timer);
        if (backends.isConnected) timer = setTimeout(pollBackends, POLL_MS);
    }

    function drawBackends(shared) {
        if (!shared.length) {
            backends.replaceChildren(h('div', { class: 'card empty', style: 'grid-column:1/-1' }, h('div', { class: 'empty-icon' }, icon('server', 26)),
                h('h2', {}, 'No shared servers yet'),
                h('p', {}, 'Edit an MCP server and switch on \u201cShare with tenant\u201d to put it behind the gateway.'),
                h('a', { class: 'btn btn-primary', href: '#/servers' }, 'Go to MCP servers')));
            return;
        }
        backends.replaceChildren(...shared.map(s => {
            const st = statusOf(s);
            return h('article', { class: 'card backend-card', dataset: { backendName: s.name, status: s.status }, 'aria-labelledby': `backend-${s.id}` },
                h('div', { class: 'card-title' }, h('h3', { id: `backend-${s.id}` }, s.name),
                    h('span', { class: 'badge accent' }, TYPE_LABELS[s.type] || s.type)),
                h('div', { class: 'endpoint', title: endpointText(s, false) }, endpointText(s)),
                h('div', { class: 'status-line' }, h('span', { class: `dot ${st.dot}`, 'aria-hidden': 'true' }), h('span', { class: 'status-text' }, st.text),
                    h('span', { class: 'status-meta' }, s.isActive ? (s.toolCount != null ? plural(s.toolCount, 'tool') : '') : 'Inactive: not in the gateway')),
                s.status === 'error' && s.lastError ? h('p', { class: 'last-error' }, s.lastError) : null);
        }));
    }

    async function listTools() {
        reload.disabled = true;
        toolsBody.replaceChildren(h('div', { class: 'loading' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), 'Opening an MCP session on /mcp and listing its tools…'));
        const started = performance.now();
        try {
            const { tools, pages, init } = await listGatewayTools();
            const info = init.serverInfo || {};
            sessionFacts.textContent = `${info.name || 'Gateway'} ${info.version || ''} · protocol ${init.protocolVersion} · ${plural(tools.length, 'tool')} in ${plural(pages, 'page')} · ${Math.round(performance.now() - started)} ms`;
            drawTools(tools);
        } catch (err) {
            toolsBody.replaceChildren(h('div', { class: 'section-body' }, alertBox(err, 'The gateway did not list its tools')));
        } finally {
            reload.disabled = false;
        }
    }

    function drawTools(tools) {
        if (!tools.length) {
            toolsBody.replaceChildren(h('div', { class: 'empty' }, h('h2', {}, 'No tools behind the gateway'),
                h('p', {}, 'Share an active MCP server with your tenant; its enabled tools appear here as backend__tool.')));
            return;
        }
        const search = h('input', { type: 'search', id: 'gateway-tool-search', placeholder: 'Filter tools', 'aria-label': 'Filter gateway tools by name or description' });
        const count = h('span', { class: 'count', 'aria-live': 'polite' });
        const rows = tools.map(t => {
            const cut = t.name.indexOf('__');
            const backend = cut > 0 ? t.name.slice(0, cut) : '';
            const own = cut > 0 ? t.name.slice(cut + 2) : t.name;
            const params = Object.keys((t.inputSchema && t.inputSchema.properties) || {});
            const required = new Set((t.inputSchema && t.inputSchema.required) || []);
            return h('tr', { dataset: { publicName: t.name } },
                h('td', {}, h('div', { class: 'tool-name' }, t.name), h('div', { class: 'tool-display' }, `${own} on ${backend || '?'}`)),
                h('td', {}, h('span', { class: 'chip' }, backend)),
                h('td', {}, h('div', { class: 'tool-desc' }, t.description || h('span', { class: 'muted' }, 'No description')),
                    params.length ? h('div', { class: 'params' }, params.map(p => h('span', { class: 'param' + (required.has(p) ? ' required' : ''), title: required.has(p) ? 'required' : 'optional' }, p))) : null));
        });
        const tbody = h('tbody', {}, rows);
        function filter() {
            const q = search.value.trim().toLowerCase();
            let shown = 0;
            for (const row of rows) {
                const hit = !q || row.textContent.toLowerCase().includes(q);
                row.hidden = !hit;
                if (hit) shown++;
            }
            count.textContent = q ? `${shown} of ${plural(tools.length, 'tool')}` : plural(tools.length, 'tool');
        }
        search.addEventListener('input', filter);
        filter();
        toolsBody.replaceChildren(h('div', { class: 'toolbar' }, search, count),
            h('div', { class: 'table-wrap' }, h('table', { class: 'data', id: 'gateway-tool-table' },
                h('caption', { class: 'sr-only' }, 'Tools offered by the gateway, by public name'),
                h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Public name'), h('th', { scope: 'col' }, 'Backend'), h('th', { scope: 'col' }, 'Description'))),
                tbody)));
    }
}

/** What an MCP client sees at /mcp: one session (initialize, tools/list across every page, DELETE). */
export async function listGatewayTools() {
    const session = await mcpSession('/mcp');
    try {
        const tools = [];
        let cursor;
        let pages = 0;
        do {
            const page = await session.request('tools/list', cursor ? { cursor } : {});
            tools.push(...(page.tools || []));
            cursor = page.nextCursor;
            pages++;
        } while (cursor && pages < 200);
        return { tools, pages, init: session.init };
    } finally {
        await session.close();
    }
}

function statusOf(s) {
    if (!s.isActive) return { dot: 'disconnected', text: 'Inactive' };
    return {
        connected: { dot: 'connected', text: 'Connected' },
        connecting: { dot: 'connecting', text: 'Connecting…' },
        error: { dot: 'error', text: 'Connection failed' },
    }[s.status] || { dot: 'disconnected', text: 'Idle' };
}
