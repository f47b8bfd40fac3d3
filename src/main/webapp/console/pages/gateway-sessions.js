// The gateway page's live sessions: who is connected to /mcp (GET /api/gateway/sessions), over what, with which
// client, and which backend sessions each client session holds (counted in the row, listed when it is opened).
// Refreshed every few seconds while shown, paged with the API's cursor (Previous keeps the cursors seen), searched
// by user or client and filtered by state, transport, protocol version and, for admins of the default tenant, by
// tenant (the API refuses other admins with tenant_forbidden, shown in words), all by the server.
import { api } from '../api.js';
import { alertBox, button, formatDate, h, plural, relativeTime } from '../ui.js';

const REFRESH_MS = 10_000;
const PAGE_SIZE = 10;
const SEARCH_DELAY_MS = 300;
const TRANSPORTS = { streamable_http: 'Streamable HTTP', websocket: 'WebSocket', legacy_sse: 'HTTP+SSE (legacy)' };
const BACKEND_STATES = {
    connected: { dot: 'connected', text: 'connected' },
    connecting: { dot: 'connecting', text: 'connecting' },
    error: { dot: 'error', text: 'failed' },
    disconnected: { dot: 'disconnected', text: 'idle' },
};

export function sessionsPanel(ctx) {
    const body = h('tbody');
    const table = h('table', { class: 'data', id: 'gateway-session-table' },
        h('caption', { class: 'sr-only' }, 'MCP sessions of the gateway, newest first, with their backend sessions'),
        h('colgroup', {}, ['who', 'client', 'transport', 'started', 'seen', 'backends'].map(c => h('col', { class: `col-${c}` }))),
        h('thead', {}, h('tr', {}, ['Who', 'Client', 'Transport', 'Started', 'Last seen', 'Backend sessions']
            .map(c => h('th', { scope: 'col' }, c)))),
        body);
    const state = h('select', { id: 'session-state', 'aria-label': 'Which sessions', onchange: () => restart() },
        h('option', { value: 'open', selected: true }, 'Open sessions'),
        h('option', { value: 'ended' }, 'Ended sessions'),
        h('option', { value: '' }, 'All sessions'));
    const tenant = h('input', { type: 'search', id: 'session-tenant', placeholder: `Tenant (${ctx.me.tenant})`, 'aria-label': 'Tenant of the sessions',
        autocomplete: 'off', spellcheck: 'false', onchange: () => restart() });
    const search = h('input', { type: 'search', id: 'session-search', placeholder: 'User or client', 'aria-label': 'Search sessions by user or client name',
        autocomplete: 'off', spellcheck: 'false', maxlength: 200 });
    const transport = h('select', { id: 'session-transport', 'aria-label': 'Transport of the sessions', onchange: () => restart() },
        h('option', { value: '' }, 'Any transport'), Object.entries(TRANSPORTS).map(([value, label]) => h('option', { value }, label)));
    const versions = h('datalist', { id: 'session-protocols' });
    const protocol = h('input', { type: 'search', id: 'session-protocol', placeholder: 'Protocol version', 'aria-label': 'Protocol version of the sessions',
        list: 'session-protocols', autocomplete: 'off', spellcheck: 'false', maxlength: 10, onchange: () => restart() });
    let searchTimer = null;
    search.addEventListener('input', () => { clearTimeout(searchTimer); searchTimer = setTimeout(restart, SEARCH_DELAY_MS); });
    const count = h('span', { class: 'count', id: 'session-count', 'aria-live': 'polite' });
    const error = h('div', { id: 'session-error' });
    const prev = button('Previous', { size: 'sm', id: 'session-prev', onClick: () => { cursors.pop(); load(); } });
    const next = button('Next', { size: 'sm', id: 'session-next', onClick: () => { cursors.push(nextCursor); load(); } });
    const pager = h('div', { class: 'pager', role: 'group', 'aria-label': 'Pages of sessions', hidden: true }, prev, next);
    const updated = h('span', {}, `Refreshed every ${REFRESH_MS / 1000} s while this page is open.`);
    const section = h('section', { class: 'card section', 'aria-labelledby': 'sessions-heading', id: 'gateway-sessions' },
        h('div', { class: 'section-head' }, h('div', {}, h('h2', { id: 'sessions-heading' }, 'Live sessions'), h('p', { id: 'sessions-updated' }, count, updated)),
            button('Refresh', { kind: 'ghost', size: 'sm', iconName: 'refresh', id: 'sessions-refresh', onClick: () => load() })),
        h('div', { class: 'toolbar' }, search, state, transport, protocol, versions, tenant),
        error,
        h('div', { class: 'table-wrap' }, table),
        pager);

    // cursors[i] opens page i (null: the first page); nextCursor is what the API gave for the page after this one
    let cursors = [null];
    let nextCursor = null;
    let timer = null;
    let loadNo = 0;
    let shown = null; // the query whose rows the table holds
    const opened = new Set(); // the sessions whose backend sessions are shown: a refresh keeps them open

    function restart() {
        cursors = [null];
        load();
    }

    async function load() {
        clearTimeout(timer);
        const mine = ++loadNo;
        const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
        if (search.value.trim()) params.set('q', search.value.trim());
        if (state.value) params.set('state', state.value);
        if (transport.value) params.set('transport', transport.value);
        if (protocol.value.trim()) params.set('protocolVersion', protocol.value.trim());
        if (tenant.value.trim()) params.set('tenant', tenant.value.trim());
        const cursor = cursors[cursors.length - 1];
        if (cursor) params.set('cursor', cursor);
        const query = params.toString();
        table.setAttribute('aria-busy', 'true');
        try {
            const page = await api.get(`/gateway/sessions?${params}`);
            if (mine !== loadNo) return;
            error.replaceChildren();
            nextCursor = page.nextCursor || null;
            shown = query;
            draw(page.data, page.total);
            updated.textContent = `${count.textContent ? ' \u00b7 ' : ''}Updated ${new Date().toLocaleTimeString()}, every ${REFRESH_MS / 1000} s while this page is open.`;
        } catch (err) {
            if (mine !== loadNo) return;
            error.replaceChildren(h('div', { class: 'section-body' }, alertBox(err, 'Could not load the gateway sessions')));
            // rows of another filter or page would pass for the answer to this one; a failed refresh keeps its rows
            if (shown !== query) {
                shown = null;
                body.replaceChildren();
                count.textContent = '';
                pager.hidden = true;
            }
            if (err.code === 'tenant_forbidden') tenant.focus();
            if (err.code === 'invalid_protocolVersion') protocol.focus();
        } finally {
            if (mine === loadNo) table.removeAttribute('aria-busy');
        }
        if (mine === loadNo && section.isConnected) timer = setTimeout(() => { if (section.isConnected) load(); }, REFRESH_MS);
    }

    function draw(sessions, total) {
        const pageNo = cursors.length;
        prev.disabled = pageNo === 1;
        next.disabled = !nextCursor;
        pager.hidden = pageNo === 1 && !nextCursor;
        const first = (pageNo - 1) * PAGE_SIZE + 1;
        const last = first + sessions.length - 1;
        count.textContent = sessions.length ? `${first === last ? first : `${first}\u2013${last}`} of ${plural(total, 'session')}` : '';
        count.dataset.total = String(total);
        const seen = new Set([...versions.options].map(o => o.value));
        sessions.filter(s => !seen.has(s.protocolVersion)).forEach(s => { seen.add(s.protocolVersion); versions.append(h('option', { value: s.protocolVersion })); });
        if (!sessions.length) {
            const nobody = state.value === 'open' && !search.value.trim() && !transport.value && !protocol.value.trim();
            body.replaceChildren(h('tr', {}, h('td', { colspan: 6 }, h('div', { class: 'empty', style: 'padding:28px' },
                h('h2', {}, nobody ? 'No one is connected to the gateway' : 'No sessions'),
                h('p', {}, nobody
                    ? 'An MCP client that initializes a session on /mcp (with a token or API key) shows up here with the backend sessions it uses.'
                    : 'Nothing matches this choice.')))));
            return;
        }
        body.replaceChildren(...sessions.flatMap(row));
    }

    function row(s) {
        const client = s.clientInfo || {};
        const ended = s.state === 'ended';
        const clientText = [client.name || 'unnamed', client.version].filter(Boolean).join(' ');
        // the backend sessions, counted in the row, are listed in a row of their own below it when opened
        const backends = s.backends || [];
        const detailsId = `session-backends-${s.id}`;
        const details = h('tr', { class: 'session-backends', id: detailsId, hidden: !opened.has(s.sessionId), dataset: { backendsOf: s.sessionId } },
            h('td', { colspan: 6 }, h('div', { class: 'chips backend-sessions' }, backends.map(backendChip))));
        const toggle = backends.length ? backendToggle(backends, detailsId, !details.hidden, (open) => {
            details.hidden = !open;
            if (open) opened.add(s.sessionId); else opened.delete(s.sessionId);
            summary.classList.toggle('open', open);
        }) : null;
        // two lines a row at most, whatever the names: what does not fit ends in an ellipsis and is in the title
        const summary = h('tr', { class: opened.has(s.sessionId) ? 'open' : null, dataset: { sessionId: s.sessionId, subject: s.subject, state: s.state } },
            h('td', {}, h('div', { class: 'tool-name one-line', title: s.subject }, s.subject),
                h('div', { class: 'tool-display one-line', title: `tenant ${s.tenant}` }, `tenant ${s.tenant}`)),
            h('td', {}, h('div', { class: 'one-line', title: clientText }, client.name ? client.name : h('span', { class: 'muted' }, 'unnamed'),
                client.version ? h('span', { class: 'muted' }, ` ${client.version}`) : null)),
            h('td', {}, h('div', { class: 'one-line' }, TRANSPORTS[s.transport] || s.transport),
                h('div', { class: 'tool-display one-line', title: `endpoint ${s.endpoint}, protocol ${s.protocolVersion}` }, `${s.endpoint} · ${s.protocolVersion}`)),
            h('td', { class: 'nowrap', title: formatDate(s.createdAt) }, relativeTime(s.createdAt)),
            h('td', { class: 'nowrap', title: ended ? `ended ${formatDate(s.endedAt)}` : formatDate(s.lastSeenAt) },
                h('div', {}, relativeTime(ended ? s.endedAt : s.lastSeenAt)),
                ended ? h('span', { class: 'badge' }, `ended${s.endReason ? ': ' + s.endReason : ''}`)
                    : s.live ? null : h('span', { class: 'badge warn', title: 'Recorded as open, held by another instance or waiting to be taken up after a restart' }, 'elsewhere')),
            h('td', {}, toggle || h('span', { class: 'muted' }, 'none')));
        return [summary, details];
    }

    return { section, start: load };
}

/** How many backend sessions, and how they stand, in one line: the button that opens their list. */
function backendToggle(backends, detailsId, open, onToggle) {
    const counts = {};
    for (const b of backends) {
        const text = (BACKEND_STATES[b.state] || { text: b.state }).text;
        counts[text] = (counts[text] || 0) + 1;
    }
    const worst = backends.find(b => b.state === 'error') || backends.find(b => b.state !== 'connected') || backends[0];
    const dot = (BACKEND_STATES[worst.state] || { dot: 'disconnected' }).dot;
    const toggle = h('button', { type: 'button', class: 'link-button backend-toggle', 'aria-expanded': String(open), 'aria-controls': detailsId,
        title: open ? 'Hide the backend sessions' : 'List the backend sessions', onclick: () => {
            const now = toggle.getAttribute('aria-expanded') !== 'true';
            toggle.setAttribute('aria-expanded', String(now));
            onToggle(now);
        } },
    h('span', { class: `dot ${dot}`, 'aria-hidden': 'true' }),
    `${plural(backends.length, 'backend')}: ${Object.entries(counts).map(([text, n]) => `${n} ${text}`).join(', ')}`);
    return toggle;
}

function backendChip(b) {
    const st = BACKEND_STATES[b.state] || { dot: 'disconnected', text: b.state };
    const id = b.backendSessionId;
    const title = [`${b.serverName}: ${st.text}`, id ? `backend session ${id}` : 'no backend session id (stdio and built-in servers have none)',
        b.lastError ? `last error: ${b.lastError}` : null].filter(Boolean).join('\n');
    return h('span', { class: 'chip backend-session', title, dataset: { serverName: b.serverName, state: b.state } },
        h('span', { class: `dot ${st.dot}`, 'aria-hidden': 'true' }), b.serverName,
        h('span', { class: 'sr-only' }, ` ${st.text}`),
        id ? h('code', { class: 'muted' }, ` ${id.length > 10 ? id.slice(0, 8) + '…' : id}`) : null);
}
