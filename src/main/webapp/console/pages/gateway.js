// Gateway (admins): the shared backends behind /mcp with their live status (the failing ones first, the rest on
// request), the live MCP sessions with the backend sessions they hold (./gateway-sessions.js), and the aggregated
// tool list as MCP clients see it (./gateway-tools.js), both searched, filtered and paged by the server so the page
// stays short with hundreds of tools and sessions.
import { api, mcpSession } from '../api.js';
import { adminOnlyNotice, alertBox, button, h, icon, plural } from '../ui.js';
import { sessionsPanel } from './gateway-sessions.js';
import { toolsPanel } from './gateway-tools.js';
import { endpointText, TYPE_LABELS } from './servers.js';

const POLL_MS = 5000;
/** Backend cards shown before "Show all": one row on a laptop screen; the summary line counts them all. */
const CARDS_SHOWN = 3;

export async function render(main, ctx) {
    if (!ctx.isAdmin) {
        main.append(adminOnlyNotice('gateway', 'The gateway page is for admins',
            'Ask an admin of your tenant to share MCP servers through the gateway; you can use it at ', h('code', {}, `${location.origin}/mcp`), ' with your API key.'));
        return;
    }
    const endpoint = `${location.origin}/mcp`;
    const backends = h('div', { class: 'grid backend-grid', id: 'backend-list', 'aria-live': 'polite' },
        h('div', { class: 'skeleton', style: 'height:96px' }), h('div', { class: 'skeleton', style: 'height:96px' }));
    const backendSummary = h('span', { class: 'hint', id: 'backends-updated' }, 'Live status, refreshed every few seconds');
    const showAll = button('Show all', { kind: 'ghost', size: 'sm', id: 'backends-show-all', hidden: true, 'aria-expanded': 'false',
        'aria-controls': 'backend-list', onClick: () => { allShown = !allShown; drawBackends(lastShared); } });
    const sessions = sessionsPanel(ctx);
    const tools = toolsPanel();

    main.append(h('div', { class: 'page' },
        h('header', { class: 'page-head' },
            h('div', {}, h('h1', {}, 'Gateway'),
                h('p', {}, 'One MCP endpoint that aggregates every active shared server of your tenant. Point any MCP client at it with a bearer token or API key.')),
            h('div', { class: 'endpoint-box' }, h('span', { class: 'label' }, 'Endpoint'), h('code', { id: 'gateway-endpoint' }, endpoint))),
        h('section', { class: 'section', 'aria-labelledby': 'backends-heading' },
            h('div', { class: 'section-title' }, h('h2', { id: 'backends-heading' }, 'Shared backends'), backendSummary, showAll),
            backends),
        sessions.section,
        tools.section));

    let timer = null;
    let allShown = false;
    let lastShared = [];
    await Promise.all([pollBackends(), sessions.start(), tools.start()]);

    async function pollBackends() {
        if (!backends.isConnected) return;
        try {
            const all = (await api.get('/mcp-servers')).data;
            lastShared = all.filter(s => s.scope === 'shared');
            drawBackends(lastShared);
            backendSummary.textContent = `${summaryOf(lastShared)} · updated ${new Date().toLocaleTimeString()}`;
        } catch (err) {
            backends.replaceChildren(alertBox(err, 'Could not load the shared servers'));
        }
        clearTimeout(timer);
        if (backends.isConnected) timer = setTimeout(pollBackends, POLL_MS);
    }

    function drawBackends(shared) {
        if (!shared.length) {
            showAll.hidden = true;
            backends.replaceChildren(h('div', { class: 'card empty', style: 'grid-column:1/-1' }, h('div', { class: 'empty-icon' }, icon('server', 26)),
                h('h2', {}, 'No shared servers yet'),
                h('p', {}, 'Edit an MCP server and switch on \u201cShare with tenant\u201d to put it behind the gateway.'),
                h('a', { class: 'btn btn-primary', href: '#/servers' }, 'Go to MCP servers')));
            return;
        }
        // what needs a look comes first: failing, then connecting, inactive, the rest by name
        const ordered = [...shared].sort((a, b) => attention(a) - attention(b) || a.name.localeCompare(b.name));
        const cards = allShown ? ordered : ordered.slice(0, CARDS_SHOWN);
        showAll.hidden = shared.length <= CARDS_SHOWN;
        showAll.replaceChildren(allShown ? 'Show fewer' : `Show all ${shared.length}`);
        showAll.setAttribute('aria-expanded', String(allShown));
        backends.replaceChildren(...cards.map(s => {
            const st = statusOf(s);
            return h('article', { class: 'card backend-card', dataset: { backendName: s.name, status: s.status }, 'aria-labelledby': `backend-${s.id}` },
                h('div', { class: 'card-title' }, h('h3', { id: `backend-${s.id}` }, s.name),
                    h('span', { class: 'badge accent' }, TYPE_LABELS[s.type] || s.type)),
                h('div', { class: 'endpoint one-line', title: endpointText(s, false) }, endpointText(s)),
                h('div', { class: 'status-line' }, h('span', { class: `dot ${st.dot}`, 'aria-hidden': 'true' }), h('span', { class: 'status-text' }, st.text),
                    h('span', { class: 'status-meta' }, !s.isActive ? 'Inactive: not in the gateway'
                        : h('button', { type: 'button', class: 'link-button', 'aria-label': `Show the tools of ${s.name} below`,
                            onclick: () => tools.showServer(s.id) }, s.toolCount != null ? plural(s.toolCount, 'tool') : 'Tools'))),
                s.status === 'error' && s.lastError ? h('p', { class: 'last-error one-line', title: s.lastError }, s.lastError) : null);
        }));
    }
}

/** "6 shared · 5 connected · 1 failing": what the cards say, counted, for when not every card is shown. */
function summaryOf(shared) {
    const failing = shared.filter(s => s.isActive && s.status === 'error').length;
    const connected = shared.filter(s => s.isActive && s.status === 'connected').length;
    const inactive = shared.filter(s => !s.isActive).length;
    return [`${shared.length} shared`, `${connected} connected`, failing ? `${failing} failing` : null, inactive ? `${inactive} inactive` : null]
        .filter(Boolean).join(' · ');
}

function attention(s) {
    if (!s.isActive) return 2;
    return { error: 0, connecting: 1 }[s.status] ?? 3;
}

/** What an MCP client sees at /mcp: one session (initialize, tools/list across every page, DELETE); the tenants page's suggestions. */
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
