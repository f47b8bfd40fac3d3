// Tenants (admins): the tenants of GET /api/tenants paged with offset/limit, create / rename / delete, and each
// tenant's policy binding (tool allowlist, prompt and resource backends, rate limit, retry rules) edited as a form.
// The API checks every value; its 400 codes are shown next to the field they name, so the console never
// second-guesses what a valid pattern is.
import { api } from '../api.js';
import { adminOnlyNotice, alertBox, busy, button, confirmDialog, describeError, formatDate, h, icon, openModal, plural, toast } from '../ui.js';
import { listGatewayTools } from './gateway.js';

const PAGE_SIZE = 20;
const UNRESTRICTED = 'Every tool, prompt and resource of its shared servers, no rate limit, no retries.';

export async function render(main, ctx) {
    if (!ctx.isAdmin) {
        main.append(adminOnlyNotice('building', 'Tenants are managed by admins',
            'What you may use through the gateway is set by the policy of your tenant; ask an admin if something you need is refused.'));
        return;
    }
    const body = h('tbody');
    const table = h('table', { class: 'data', id: 'tenant-table' },
        h('caption', { class: 'sr-only' }, 'Tenants by id, with their gateway policy'),
        h('thead', {}, h('tr', {}, ['Tenant', 'Policy', 'Updated', 'Actions'].map(c => h('th', { scope: 'col', class: c === 'Actions' ? 'num' : null }, c)))),
        body);
    const listError = h('div', { id: 'tenant-error' });
    const count = h('span', { class: 'count', id: 'tenant-count', 'aria-live': 'polite' });
    const prev = button('Previous', { size: 'sm', id: 'tenant-prev', onClick: () => load(offset - PAGE_SIZE) });
    const next = button('Next', { size: 'sm', id: 'tenant-next', onClick: () => load(offset + PAGE_SIZE) });
    const create = button('New tenant', { kind: 'primary', iconName: 'plus', id: 'tenant-new', onClick: async () => {
        const created = await openTenantModal(null);
        if (created) { toast(`Tenant ${created.id} created`); await load(offset); }
    } });

    main.append(h('div', { class: 'page page-wide' },
        h('header', { class: 'page-head' },
            h('div', {}, h('h1', {}, 'Tenants'),
                h('p', {}, 'A tenant is the value of the tokens\u2019 tenant claim. Its policy narrows what its users may do through the gateway; a tenant without a policy is unrestricted.')),
            h('div', { class: 'page-actions' }, create)),
        h('section', { class: 'card section', 'aria-label': 'Tenants' },
            h('div', { class: 'toolbar' }, h('span', { class: 'hint' }, 'Tenants that still have users or MCP servers cannot be deleted.'), count),
            listError,
            h('div', { class: 'table-wrap' }, table),
            h('div', { class: 'pager', 'aria-label': 'Pages of tenants', role: 'group' }, prev, next))));

    let offset = 0;
    await load(0);

    async function load(from) {
        listError.replaceChildren();
        table.setAttribute('aria-busy', 'true');
        try {
            let page = await api.get(`/tenants?offset=${Math.max(0, from)}&limit=${PAGE_SIZE}`);
            // the last tenant of a page was deleted: show the page before it
            if (!page.data.length && page.offset > 0) page = await api.get(`/tenants?offset=${Math.max(0, page.offset - PAGE_SIZE)}&limit=${PAGE_SIZE}`);
            offset = page.offset;
            draw(page);
        } catch (err) {
            listError.replaceChildren(alertBox(err, 'Could not load the tenants'));
        } finally {
            table.removeAttribute('aria-busy');
        }
    }

    function draw(page) {
        const last = page.offset + page.data.length;
        count.textContent = page.total ? `${page.offset + 1}\u2013${last} of ${plural(page.total, 'tenant')}` : '';
        prev.disabled = page.offset === 0;
        next.disabled = last >= page.total;
        prev.parentElement.hidden = page.total <= PAGE_SIZE;
        if (!page.data.length) {
            body.replaceChildren(h('tr', {}, h('td', { colspan: 4 }, h('div', { class: 'empty', style: 'padding:28px' },
                h('h2', {}, 'No tenants yet'),
                h('p', {}, 'Every tenant without a row is unrestricted. Create one to give it a name and a policy.')))));
            return;
        }
        body.replaceChildren(...page.data.map(t => h('tr', { dataset: { tenantId: t.id, policy: t.policy ? 'bound' : 'none' } },
            h('td', {}, h('div', { class: 'tenant-name' }, t.name), h('div', { class: 'tool-display' }, t.id)),
            h('td', { class: 'policy-summary' }, policySummary(t.policy)),
            h('td', { class: 'nowrap' }, formatDate(t.updatedAt)),
            h('td', { class: 'num' }, h('div', { class: 'row-actions' },
                button('Policy', { size: 'sm', iconName: 'shield', 'aria-label': `Policy of ${t.id}`, onClick: () => editPolicy(t) }),
                button('', { kind: 'ghost', size: 'sm', iconName: 'edit', class: 'btn btn-ghost btn-icon', 'aria-label': `Rename ${t.id}`, title: 'Rename', onClick: () => rename(t) }),
                button('', { kind: 'ghost', size: 'sm', iconName: 'trash', class: 'btn btn-ghost btn-icon', 'aria-label': `Delete ${t.id}`, title: 'Delete', onClick: () => remove(t) }))))));
    }

    async function rename(t) {
        const saved = await openTenantModal(t);
        if (saved) { toast(`Tenant ${t.id} renamed`); await load(offset); }
    }

    async function editPolicy(t) {
        const saved = await openPolicyEditor(t);
        if (saved) await load(offset);
    }

    async function remove(t) {
        const ok = await confirmDialog({ title: `Delete tenant ${t.id}?`,
            message: `Its name and policy are deleted. A tenant that still has users or MCP servers is kept; tokens of tenant ${t.id} are then unrestricted.` });
        if (!ok) return;
        try {
            await api.del(`/tenants/${encodeURIComponent(t.id)}`);
            toast(`Tenant ${t.id} deleted`);
            await load(offset);
        } catch (err) {
            listError.replaceChildren(err.code === 'tenant_in_use'
                ? h('div', { class: 'alert', role: 'alert', id: 'tenant-in-use', dataset: { tenantId: t.id } }, icon('alert'), h('div', {},
                    h('strong', {}, `Tenant ${t.id} is still in use, so it was not deleted.`),
                    h('span', {}, describeError(err).headline)))
                : alertBox(err, `Tenant ${t.id} was not deleted`));
        }
    }
}

/** One line per restriction, so the table says at a glance what a tenant may do. */
function policySummary(policy) {
    if (!policy) return h('span', { class: 'badge ok', title: UNRESTRICTED }, 'Unrestricted');
    const parts = [];
    parts.push(policy.tools == null ? 'All tools' : policy.tools.length ? `Tools: ${policy.tools.join(', ')}` : 'No tools');
    if (policy.resourceBackends != null) {
        parts.push(policy.resourceBackends.length ? `Prompts & resources: ${policy.resourceBackends.join(', ')}` : 'No prompts or resources');
    }
    const r = policy.rateLimit;
    if (r) parts.push(`${r.requests} per ${r.per}, burst ${r.burst}${r.perSubject ? ', per user' : ''}`);
    if (policy.toolRules.length) parts.push(plural(policy.toolRules.length, 'retry rule'));
    if (policy.allowedNetworks && policy.allowedNetworks.length) parts.push(`Users\u2019 servers may reach: ${policy.allowedNetworks.join(', ')}`);
    return h('div', {}, h('span', { class: 'badge accent' }, 'Policy'), h('ul', { class: 'policy-lines' }, parts.map(p => h('li', {}, p))));
}

/**
 * A form's fields keyed by the names the API's error codes point at: an error lands next to its field (message and
 * code), or above the form when it names none.
 */
function fieldSet(prefix) {
    const fields = {};
    const general = h('div', { 'aria-live': 'assertive' });
    return {
        general,
        /** lead: shown between the label and the control (a switch that turns it on); after: below the error. */
        field(key, labelText, control, hint, { labelFor = true, lead = null, after = null } = {}) {
            const error = h('div', { class: 'field-error', id: `${prefix}-${key}-error`, hidden: true });
            const hintEl = hint ? h('div', { class: 'hint', id: `${prefix}-${key}-hint` }, hint) : null;
            if (labelFor) control.setAttribute('aria-describedby', [hintEl && hintEl.id, error.id].filter(Boolean).join(' '));
            const wrap = h('div', { class: 'field', dataset: { field: key } },
                labelFor ? h('label', { for: control.id }, labelText) : h('div', { class: 'label' }, labelText),
                lead, control, hintEl, error, after);
            fields[key] = { wrap, error, control };
            return wrap;
        },
        clear() {
            general.replaceChildren();
            for (const f of Object.values(fields)) { f.wrap.classList.remove('invalid'); f.error.hidden = true; f.error.textContent = ''; }
        },
        /** Shows the error next to fields[key] when there is one, else above the form. */
        show(key, err, title) {
            const f = key && fields[key];
            if (!f) {
                general.replaceChildren(alertBox(err, title));
                general.scrollIntoView({ block: 'nearest' });
                return;
            }
            f.wrap.classList.add('invalid');
            f.error.replaceChildren(describeError(err).headline, err.code ? h('code', { class: 'error-code' }, err.code) : null);
            f.error.hidden = false;
            f.error.dataset.code = err.code || '';
            const focusable = f.control.matches('input,textarea,select') ? f.control : f.control.querySelector('input,textarea,select');
            if (focusable) focusable.focus();
            f.wrap.scrollIntoView({ block: 'nearest' });
        },
    };
}

/** Creates (tenant null) or renames a tenant; resolves with the saved tenant, or undefined when cancelled. */
function openTenantModal(tenant) {
    const creating = !tenant;
    const form = fieldSet('tenant');
    const id = h('input', { type: 'text', id: 'tenant-id', class: 'mono', value: tenant ? tenant.id : '', disabled: !creating, maxlength: 64, autocomplete: 'off', spellcheck: 'false', placeholder: 'e.g. acme' });
    const name = h('input', { type: 'text', id: 'tenant-name', value: tenant ? tenant.name : '', maxlength: 255, autocomplete: 'off', placeholder: 'e.g. Acme Corporation' });
    const save = h('button', { type: 'submit', class: 'btn btn-primary', id: 'tenant-save' }, creating ? 'Create tenant' : 'Save name');
    const FIELD_OF_CODE = { invalid_tenant_id: 'id', tenant_exists: 'id', invalid_name: 'name' };
    const { closed } = openModal({
        title: creating ? 'New tenant' : `Rename ${tenant.id}`,
        subtitle: creating ? 'It starts unrestricted; give it a policy afterwards.' : 'The id is the tokens\u2019 tenant claim and cannot change.',
        build: (dialog, head) => [head, h('form', { novalidate: true, onsubmit: async (e) => {
            e.preventDefault();
            form.clear();
            const b = { name: name.value.trim() || null };
            if (creating) b.id = id.value.trim();
            try {
                const saved = await busy(save, creating ? api.post('/tenants', b) : api.put(`/tenants/${encodeURIComponent(tenant.id)}`, b), 'Saving\u2026');
                dialog.finish(saved);
            } catch (err) {
                form.show(FIELD_OF_CODE[err.code], err, creating ? 'The tenant was not created' : 'The name was not saved');
            }
        } },
        h('div', { class: 'modal-body' }, form.general,
            form.field('id', 'Tenant id', id, creating ? 'The tenant claim of its users\u2019 tokens: 1-64 letters, digits, ., _ or -.' : null),
            form.field('name', 'Display name', name, creating ? 'Optional; the id is used when left empty.' : null)),
        h('div', { class: 'modal-foot' }, button('Cancel', { onClick: () => dialog.close() }), save))],
    });
    (creating ? id : name).focus();
    return closed;
}

/** Names the gateway offers the admin's own tenant now, for suggestions: tool names and backend names. */
async function gatewayNames() {
    const [tools, servers] = await Promise.allSettled([listGatewayTools(), api.get('/mcp-servers')]);
    const toolNames = tools.status === 'fulfilled' ? tools.value.tools.map(t => t.name) : [];
    const backends = new Set(toolNames.filter(n => n.includes('__')).map(n => n.slice(0, n.indexOf('__'))));
    if (servers.status === 'fulfilled') servers.value.data.filter(s => s.scope === 'shared').forEach(s => backends.add(s.name));
    return { toolNames, backends: [...backends].sort() };
}

/** A list of names edited one per line, with an "only these" switch: off means null (no restriction). */
function restrictedList({ id, restrictLabel, restrictHint, values, placeholder }) {
    const restrict = h('input', { type: 'checkbox', role: 'switch', id: `${id}-restrict`, checked: values != null });
    const text = h('textarea', { id, class: 'mono', rows: 4, placeholder, spellcheck: 'false' });
    text.value = (values || []).join('\n');
    const sync = () => { text.disabled = !restrict.checked; };
    restrict.addEventListener('change', () => { sync(); if (restrict.checked) text.focus(); });
    sync();
    return {
        restrict, text,
        toggle: h('label', { class: 'switch', for: restrict.id }, restrict, h('span', { class: 'switch-text' }, restrictLabel, h('small', {}, restrictHint))),
        value: () => restrict.checked ? text.value.split('\n').map(v => v.trim()).filter(Boolean) : null,
        add(name) {
            restrict.checked = true;
            sync();
            const lines = text.value.split('\n').map(v => v.trim()).filter(Boolean);
            if (!lines.includes(name)) text.value = [...lines, name].join('\n');
        },
    };
}

/** The policy editor; resolves true when the policy was saved or removed. */
function openPolicyEditor(tenant) {
    const p = tenant.policy || { tools: null, resourceBackends: null, rateLimit: null, toolRules: [], allowedNetworks: [] };
    const form = fieldSet('policy');
    const tools = restrictedList({ id: 'policy-tools', values: p.tools,
        restrictLabel: 'Only these tools', restrictHint: 'Off: every tool of the tenant\u2019s shared servers', placeholder: 'files__read_file\neverything__*' });
    const backends = restrictedList({ id: 'policy-backends', values: p.resourceBackends,
        restrictLabel: 'Only these backends', restrictHint: 'Off: prompts and resources of every shared server', placeholder: 'everything' });

    const toolAdd = h('input', { type: 'text', id: 'policy-tool-add', class: 'mono', list: 'policy-tool-names', autocomplete: 'off', spellcheck: 'false',
        placeholder: 'Type a tool name or backend__*', 'aria-label': 'Tool pattern to add',
        onkeydown: (e) => { if (e.key === 'Enter') { e.preventDefault(); addTool(); } } });
    const toolNames = h('datalist', { id: 'policy-tool-names' });
    const backendChips = h('div', { class: 'chips', id: 'policy-backend-suggestions', 'aria-label': 'Add every tool of a backend' });
    const resourceChips = h('div', { class: 'chips', id: 'policy-resource-suggestions', 'aria-label': 'Add a backend' });
    const suggestionsNote = h('div', { class: 'hint', id: 'policy-suggestions-note' }, 'Looking up the gateway\u2019s tools\u2026');
    function addTool() {
        if (!toolAdd.value.trim()) return;
        tools.add(toolAdd.value.trim());
        toolAdd.value = '';
    }
    gatewayNames().then(({ toolNames: names, backends: known }) => {
        toolNames.replaceChildren(...names.map(n => h('option', { value: n })), ...known.map(b => h('option', { value: `${b}__*` })));
        backendChips.replaceChildren(...known.map(b => h('button', { type: 'button', class: 'chip chip-button', dataset: { pattern: `${b}__*` },
            onclick: () => tools.add(`${b}__*`) }, icon('plus', 12), `${b}__*`)));
        resourceChips.replaceChildren(...known.map(b => h('button', { type: 'button', class: 'chip chip-button', dataset: { backend: b },
            onclick: () => backends.add(b) }, icon('plus', 12), b)));
        suggestionsNote.textContent = names.length
            ? `Suggestions: the ${plural(names.length, 'tool')} the gateway offers your own tenant now; this tenant\u2019s servers may differ.`
            : 'No gateway tools to suggest: your tenant shares no active servers. Patterns can still be typed.';
    });

    const r = p.rateLimit;
    const rateOn = h('input', { type: 'checkbox', role: 'switch', id: 'policy-rate-on', checked: !!r });
    const requests = h('input', { type: 'number', id: 'policy-rate-requests', min: 1, step: 1, value: r ? String(r.requests) : '' });
    const per = h('select', { id: 'policy-rate-per' }, ['second', 'minute'].map(v => h('option', { value: v, selected: r ? r.per === v : v === 'minute' }, `per ${v}`)));
    const burst = h('input', { type: 'number', id: 'policy-rate-burst', min: 1, step: 1, value: r ? String(r.burst) : '', placeholder: 'same as requests' });
    const perSubject = h('input', { type: 'checkbox', role: 'switch', id: 'policy-rate-per-subject', checked: !!(r && r.perSubject) });
    const rateFields = h('div', { class: 'rate-fields' },
        h('div', { class: 'row' },
            h('div', { class: 'field' }, h('label', { for: requests.id }, 'Requests'), requests),
            h('div', { class: 'field' }, h('label', { for: per.id }, 'Period'), per)),
        h('div', { class: 'row' },
            h('div', { class: 'field' }, h('label', { for: burst.id }, 'Burst (optional)'), burst),
            h('div', { class: 'field' }, h('div', { class: 'label' }, 'Counted'),
                h('label', { class: 'switch', for: perSubject.id }, perSubject, h('span', { class: 'switch-text' }, 'Per user', h('small', {}, 'Off: one bucket for the whole tenant'))))));
    const syncRate = () => { for (const c of [requests, per, burst, perSubject]) c.disabled = !rateOn.checked; };
    rateOn.addEventListener('change', () => { syncRate(); if (rateOn.checked) requests.focus(); });
    syncRate();
    const rate = h('div', {}, h('label', { class: 'switch', for: rateOn.id }, rateOn, h('span', { class: 'switch-text' }, 'Limit the rate',
        h('small', {}, 'Counts tools/call, resources/read and prompts/get; over the limit the gateway answers rate_limited'))), rateFields);

    const ruleRows = h('div', { class: 'rule-rows', id: 'policy-rules' });
    const rulesEmpty = h('div', { class: 'kv-empty' }, 'No rules: no tool is retried.');
    let ruleNo = 0;
    function addRule(rule = { tool: '', retryAllowed: false, risk: 'high' }) {
        const n = ++ruleNo;
        const tool = h('input', { type: 'text', class: 'mono', value: rule.tool, list: 'policy-tool-names', 'aria-label': `Rule ${n} tool pattern`, placeholder: 'backend__tool', autocomplete: 'off', spellcheck: 'false' });
        const retry = h('input', { type: 'checkbox', checked: rule.retryAllowed, 'aria-label': `Rule ${n} retry allowed` });
        const risk = h('select', { 'aria-label': `Rule ${n} risk` }, ['low', 'medium', 'high'].map(v => h('option', { value: v, selected: rule.risk === v }, `${v} risk`)));
        const row = h('div', { class: 'rule-row', dataset: { rule: String(n) } }, tool,
            h('label', { class: 'rule-retry' }, retry, 'Retry allowed'), risk,
            h('button', { type: 'button', class: 'btn btn-ghost btn-icon', 'aria-label': `Remove rule ${n}`, onclick: () => { row.remove(); syncRules(); } }, icon('trash')));
        row.value = () => ({ tool: tool.value.trim(), retryAllowed: retry.checked, risk: risk.value });
        ruleRows.append(row);
        syncRules();
        return tool;
    }
    function syncRules() { rulesEmpty.hidden = ruleRows.children.length > 0; }
    p.toolRules.forEach(addRule);
    syncRules();
    const networks = h('textarea', { id: 'policy-networks', class: 'mono', rows: 3, spellcheck: 'false', placeholder: '10.20.0.0/16\nmcp.internal.example' });
    networks.value = (p.allowedNetworks || []).join('\n');
    const rules = h('div', {}, ruleRows, rulesEmpty,
        button('Add rule', { kind: 'ghost', size: 'sm', iconName: 'plus', id: 'policy-rule-add', onClick: () => addRule().focus() }));

    function policyBody() {
        const b = { tools: tools.value(), resourceBackends: backends.value(), rateLimit: null, toolRules: [...ruleRows.children].map(row => row.value()),
            allowedNetworks: networks.value.split('\n').map(v => v.trim()).filter(Boolean) };
        if (rateOn.checked) {
            b.rateLimit = { per: per.value, perSubject: perSubject.checked };
            // left to the API to judge (it says which value is wrong); an empty box is left out
            if (requests.value.trim() !== '') b.rateLimit.requests = Number(requests.value);
            if (burst.value.trim() !== '') b.rateLimit.burst = Number(burst.value);
        }
        return b;
    }

    /** The field an API error names; a bad pattern is looked up in the allowlist, else it came from a rule. */
    function fieldOf(err, b) {
        switch (err.code) {
            case 'invalid_tools': return 'tools';
            case 'invalid_tool_pattern': {
                const bad = (err.message.match(/^'(.*)' is not a tool pattern/) || [])[1];
                return bad !== undefined && (b.tools || []).includes(bad) ? 'tools' : 'rules';
            }
            case 'invalid_backend_name': case 'invalid_resource_backends': return 'backends';
            case 'invalid_rate_limit': return 'rate';
            case 'invalid_tool_rule': return 'rules';
            case 'invalid_allowed_networks': return 'networks';
            default: return null;
        }
    }

    const save = h('button', { type: 'submit', class: 'btn btn-primary', id: 'policy-save' }, 'Save policy');
    const removeBtn = tenant.policy ? button('Remove policy', { kind: 'danger', id: 'policy-remove', class: 'btn btn-danger left', onClick: () => removePolicy() }) : null;
    let dialogRef;
    async function removePolicy() {
        const ok = await confirmDialog({ title: `Remove the policy of ${tenant.id}?`, confirmLabel: 'Remove policy',
            message: `Tenant ${tenant.id} becomes unrestricted: ${UNRESTRICTED.charAt(0).toLowerCase()}${UNRESTRICTED.slice(1)}` });
        if (!ok) return;
        form.clear();
        try {
            await busy(removeBtn, api.del(`/tenants/${encodeURIComponent(tenant.id)}/policy`), 'Removing\u2026');
            toast(`Tenant ${tenant.id} is unrestricted now`);
            dialogRef.finish(true);
        } catch (err) {
            form.show(null, err, 'The policy was not removed');
        }
    }

    const { dialog, closed } = openModal({
        title: `Policy of ${tenant.name}`, subtitle: tenant.policy ? `Tenant ${tenant.id}` : `Tenant ${tenant.id} has no policy: it is unrestricted until you save one.`,
        build: (dlg, head) => [head, h('form', { id: 'policy-form', novalidate: true, onsubmit: async (e) => {
            e.preventDefault();
            form.clear();
            const b = policyBody();
            try {
                await busy(save, api.put(`/tenants/${encodeURIComponent(tenant.id)}/policy`, b), 'Saving\u2026');
                toast(`Policy of ${tenant.id} saved`);
                dlg.finish(true);
            } catch (err) {
                form.show(fieldOf(err, b), err, 'The policy was not saved');
            }
        } },
        h('div', { class: 'modal-body' }, form.general,
            form.field('tools', 'Tool allowlist', tools.text, h('span', {},
                'One pattern per line over the gateway\u2019s public names: ', h('code', {}, 'backend__tool'), ' for one tool, ',
                h('code', {}, 'backend__*'), ' for every tool of a backend, ', h('code', {}, '*'), ' for all. Tools outside it are not listed and their calls are refused (policy_denied).'),
            { lead: tools.toggle, after: h('div', { class: 'policy-extra' },
                h('div', { class: 'tool-add' }, toolAdd, toolNames, button('Add', { size: 'sm', id: 'policy-tool-add-btn', onClick: addTool })),
                backendChips, suggestionsNote) }),
            form.field('backends', 'Prompts and resources', backends.text, 'One backend per line whose prompts and resources the tenant may list and use.',
                { lead: backends.toggle, after: h('div', { class: 'policy-extra' }, resourceChips) }),
            form.field('rate', 'Rate limit', rate, 'A token bucket: the requests refill over the period, at most the burst at once.', { labelFor: false }),
            form.field('rules', 'Retry rules', rules, 'Failed calls (backend unavailable or timed out) are retried only for a tool marked retry allowed and low risk, and only when the call carries an idempotency key. The most specific pattern wins.', { labelFor: false }),
            form.field('networks', 'Internal networks for users\u2019 servers', networks, 'One network (10.20.0.0/16), address or host name per line that MCP servers registered by this tenant\u2019s users may reach although it is internal (loopback, link-local, private). Empty: public addresses only. Servers registered by platform admins are not held to it.')),
        h('div', { class: 'modal-foot' }, removeBtn, button('Cancel', { onClick: () => dlg.close() }), save))],
    });
    dialogRef = dialog;
    (tools.restrict.checked ? tools.text : tools.restrict).focus();
    return closed;
}
