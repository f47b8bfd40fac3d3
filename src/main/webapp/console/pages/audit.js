// Audit (admins): the audit trail of GET /api/audit, newest first, filtered and paged with its cursor ("Load more"),
// each event's details in a drawer, and the tenant's hash chain checked with GET /api/audit/verify.
import { api } from '../api.js';
import { adminOnlyNotice, alertBox, button, h, icon, openModal, plural } from '../ui.js';

const PAGE_SIZE = 50;
/** The filters GET /api/audit takes, as the form names them. */
const FILTERS = [
    { name: 'tenant', label: 'Tenant', placeholder: 'Your tenant' },
    { name: 'subject', label: 'Subject', placeholder: 'Any user' },
    { name: 'tool', label: 'Tool', placeholder: 'e.g. files__read_file' },
    { name: 'backend', label: 'Backend', placeholder: 'Any backend' },
    { name: 'decision', label: 'Decision', placeholder: 'Any decision', list: 'audit-decisions' },
];

export async function render(main, ctx) {
    if (!ctx.isAdmin) {
        main.append(adminOnlyNotice('shield', 'The audit trail is for admins',
            'Every tool call through the gateway is recorded; ask an admin of your tenant if you need to see it.'));
        return;
    }
    const inputs = Object.fromEntries(FILTERS.map(f => [f.name, h('input', {
        type: 'text', id: `audit-${f.name}`, name: f.name, placeholder: f.placeholder, list: f.list, autocomplete: 'off', spellcheck: 'false', maxlength: 200,
    })]));
    const from = h('input', { type: 'datetime-local', id: 'audit-from', name: 'from', step: 1 });
    const to = h('input', { type: 'datetime-local', id: 'audit-to', name: 'to', step: 1 });
    const field = (id, label, input) => h('div', { class: 'field' }, h('label', { for: id }, label), input);
    const formError = h('div', { 'aria-live': 'assertive', id: 'audit-filter-error' });
    const applyBtn = h('button', { type: 'submit', class: 'btn btn-primary btn-sm', id: 'audit-apply' }, icon('search'), 'Apply filters');
    const clearBtn = button('Clear', { kind: 'ghost', size: 'sm', id: 'audit-clear', onClick: () => {
        for (const input of [...Object.values(inputs), from, to]) input.value = '';
        load();
    } });
    const filters = h('form', { class: 'audit-filters', id: 'audit-filters', 'aria-label': 'Filter audit events', novalidate: true,
        onsubmit: (e) => { e.preventDefault(); load(); } },
    FILTERS.map(f => field(`audit-${f.name}`, f.label, inputs[f.name])),
    field('audit-from', 'From', from), field('audit-to', 'Until', to),
    h('datalist', { id: 'audit-decisions' }, ['allow', 'deny', 'rate_limited'].map(d => h('option', { value: d }))),
    h('div', { class: 'audit-filter-actions' }, applyBtn, clearBtn));

    const count = h('span', { class: 'count', id: 'audit-count', 'aria-live': 'polite' });
    const body = h('tbody');
    const table = h('table', { class: 'data', id: 'audit-table' },
        h('caption', { class: 'sr-only' }, 'Audit events, newest first'),
        h('thead', {}, h('tr', {}, ['Time', 'Subject', 'Action', 'Tool and backend', 'Decision', 'Outcome', 'Duration', 'Trace id']
            .map(c => h('th', { scope: 'col', class: c === 'Duration' ? 'num' : null }, c)))), body);
    const listError = h('div', { id: 'audit-error' });
    const moreBtn = button('Load more', { id: 'audit-more', hidden: true, onClick: () => loadMore() });
    const verifyBtn = button('Verify chain', { kind: 'primary', iconName: 'shield', id: 'audit-verify-btn', onClick: () => verify() });
    const verifyResult = h('div', { id: 'audit-verify', 'aria-live': 'polite' });

    main.append(h('div', { class: 'page page-wide' },
        h('header', { class: 'page-head' },
            h('div', {}, h('h1', {}, 'Audit trail'),
                h('p', {}, 'Every tools/call, resources/read and prompts/get through the gateway, newest first. The input is kept only as a keyed hash; each tenant\u2019s events form a hash chain.')),
            h('div', { class: 'page-actions' }, verifyBtn)),
        verifyResult,
        h('section', { class: 'card section', 'aria-label': 'Audit events' },
            filters, formError,
            h('div', { class: 'toolbar' }, h('span', { class: 'hint' }, 'Select an event to see its trace id, input hash and chain position.'), count),
            listError,
            h('div', { class: 'table-wrap' }, table),
            h('div', { class: 'load-more' }, moreBtn))));

    let events = [];
    let cursor = null;
    let query = new URLSearchParams();
    let loadNo = 0; // a new search makes the answers of earlier ones stale
    await load();

    /** The filters as query parameters; null (with the reason shown) when the time range makes no sense. */
    function filterParams() {
        formError.replaceChildren();
        const params = new URLSearchParams();
        for (const f of FILTERS) if (inputs[f.name].value.trim()) params.set(f.name, inputs[f.name].value.trim());
        const start = from.value ? new Date(from.value) : null;
        const end = to.value ? new Date(to.value) : null;
        if (start && end && start >= end) {
            formError.replaceChildren(h('div', { class: 'alert', role: 'alert' }, icon('alert'), h('div', {},
                h('strong', {}, 'The time range is empty.'), h('span', {}, '\u201cFrom\u201d must be before \u201cUntil\u201d.'))));
            from.focus();
            return null;
        }
        if (start) params.set('from', start.toISOString());
        if (end) params.set('to', end.toISOString());
        params.set('limit', String(PAGE_SIZE));
        return params;
    }

    async function load() {
        const params = filterParams();
        if (!params) return;
        query = params;
        loadNo++;
        events = [];
        cursor = null;
        count.textContent = '';
        body.replaceChildren(h('tr', {}, h('td', { colspan: 8 }, h('div', { class: 'loading' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), 'Loading audit events…'))));
        await fetchPage(applyBtn);
    }

    async function loadMore() {
        await fetchPage(moreBtn);
    }

    async function fetchPage(btn) {
        listError.replaceChildren();
        const params = new URLSearchParams(query);
        if (cursor) params.set('cursor', cursor);
        const mine = loadNo;
        btn.disabled = true;
        btn.setAttribute('aria-busy', 'true');
        table.setAttribute('aria-busy', 'true');
        try {
            const page = await api.get(`/audit?${params}`);
            if (mine !== loadNo) return;
            events = events.concat(page.data);
            cursor = page.nextCursor || null;
            draw();
        } catch (err) {
            if (mine !== loadNo) return;
            if (!events.length) body.replaceChildren();
            listError.replaceChildren(alertBox(err, 'Could not load the audit trail'));
            if (err.code === 'tenant_forbidden') inputs.tenant.focus();
        } finally {
            btn.disabled = false;
            btn.removeAttribute('aria-busy');
            if (mine === loadNo) table.removeAttribute('aria-busy');
        }
    }

    function draw() {
        moreBtn.hidden = !cursor;
        count.textContent = `${plural(events.length, 'event')}${cursor ? ' so far' : ''}`;
        if (!events.length) {
            body.replaceChildren(h('tr', {}, h('td', { colspan: 8 }, h('div', { class: 'empty', style: 'padding:28px' },
                h('h2', {}, 'No audit events'),
                h('p', {}, query.toString().replace(/(^|&)limit=\d+/, '') ? 'Nothing matches these filters. Clear them to see every event.'
                    : 'Nothing has gone through the gateway yet. Tool calls on /mcp show up here.')))));
            return;
        }
        body.replaceChildren(...events.map(e => h('tr', { dataset: { auditId: e.id, tool: e.tool || '' } },
            h('td', {}, h('button', { type: 'button', class: 'link-button', 'aria-label': `Details of event ${e.chainSeq}`, title: formatTime(e.ts), onclick: () => details(e) },
                shortTime(e.ts))),
            h('td', { class: 'mono audit-wrap' }, e.subject || '—'),
            h('td', { class: 'mono' }, e.action),
            // one column for both keeps every column on a laptop screen; the public tool name starts with the backend anyway
            h('td', { class: 'audit-wrap' }, h('div', { class: 'mono audit-tool' }, e.tool || '—'), e.backendId ? h('div', { class: 'tool-display audit-backend' }, `on ${e.backendId}`) : null),
            h('td', {}, h('span', { class: `badge ${e.decision === 'allow' ? 'ok' : e.decision === 'rate_limited' ? 'warn' : 'danger'}` }, e.decision)),
            h('td', {}, outcomeBadge(e.outcome)),
            h('td', { class: 'num' }, e.durationMs != null ? `${e.durationMs} ms` : '—'),
            // the trace id finds the call in the logs and in an HTTP backend's traces; the drawer shows it whole
            h('td', { class: 'mono trace-id', title: e.traceId || null }, e.traceId ? e.traceId.slice(0, 8) + '…' : '—'))));
    }

    async function verify() {
        const tenant = inputs.tenant.value.trim();
        verifyResult.replaceChildren(h('div', { class: 'result busy' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }),
            h('div', {}, `Walking the hash chain of ${tenant || 'your tenant'}…`)));
        verifyBtn.disabled = true;
        try {
            const v = await api.get(`/audit/verify${tenant ? `?tenant=${encodeURIComponent(tenant)}` : ''}`);
            verifyResult.replaceChildren(v.valid
                ? h('div', { class: 'result ok', dataset: { valid: 'true' } }, icon('checkCircle'), h('div', {},
                    h('strong', {}, `Chain intact for tenant ${v.tenant}`),
                    h('span', { class: 'detail' }, `${plural(v.checked, 'event')} checked: none changed, none missing in between.`)))
                : h('div', { class: 'result fail', dataset: { valid: 'false' }, role: 'alert' }, icon('alert'), h('div', {},
                    h('strong', {}, `Chain broken for tenant ${v.tenant} at event ${v.brokenAtSeq}`),
                    h('span', { class: 'detail' }, `${capitalised(v.reason)}. ${plural(v.checked, 'event')} before the break checked out; this event and any after it cannot be trusted. Look for who could write to the database.`))));
        } catch (err) {
            verifyResult.replaceChildren(alertBox(err, 'The chain could not be verified'));
        } finally {
            verifyBtn.disabled = false;
        }
    }
}

function details(e) {
    const rows = [
        ['Time', `${formatTime(e.ts)} (${new Date(e.ts).toISOString()})`],
        ['Tenant', e.tenantId], ['Subject', e.subject], ['Client application', e.clientId],
        ['Action', e.action], ['Tool', e.tool], ['Backend', e.backendId],
        ['Decision', e.decision], ['Outcome', e.outcome], ['Duration', e.durationMs != null ? `${e.durationMs} ms` : null],
        ['Trace id', e.traceId], ['Input hash', e.inputHash], ['Key version', e.keyVersion != null ? `v${e.keyVersion}` : null],
        ['Chain position', e.chainSeq], ['Previous hash', e.prevHash], ['Row hash', e.rowHash],
    ];
    openModal({
        title: `Audit event ${e.chainSeq}`, subtitle: `${e.action} ${e.tool || ''}`.trim(), size: 'drawer',
        build: (dialog, head) => [head, h('div', { class: 'modal-body' },
            h('dl', { class: 'kv-list audit-detail', id: 'audit-detail' }, rows.map(([label, value]) => [
                h('dt', {}, label), h('dd', { class: 'mono', dataset: { field: label } }, value == null || value === '' ? '—' : String(value))])),
            h('p', { class: 'hint', style: 'margin:16px 0' }, 'The input itself is never stored: its HMAC under the key version shown can be matched with POST /api/audit/search-by-input.')),
        h('div', { class: 'modal-foot' }, button('Close', { onClick: () => dialog.close() }))],
    });
}

function capitalised(text) {
    return text ? text.charAt(0).toUpperCase() + text.slice(1) : '';
}

function outcomeBadge(outcome) {
    if (!outcome) return '—';
    return h('span', { class: `badge ${outcome === 'ok' ? 'ok' : outcome === 'tool_error' ? 'warn' : 'danger'}` }, outcome);
}

/** The table's time: day and time to the second, the year only when it is not this one. */
function shortTime(ts) {
    const d = new Date(ts);
    const options = { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' };
    if (d.getFullYear() !== new Date().getFullYear()) options.year = 'numeric';
    return d.toLocaleString(undefined, options);
}

function formatTime(ts) {
    return new Date(ts).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}
