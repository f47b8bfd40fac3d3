// The MCP client system's /settings/mcp page: server cards (ServerCard), the create/edit modal (ServerEditModal), test and delete.
import { api } from '../api.js';
import {
    alertBox, busy, button, confirmDialog, describeError, h, icon, keyValueEditor, openModal, plural, toast,
} from '../ui.js';

export const TYPE_LABELS = { streamableHttp: 'Streamable HTTP', sse: 'SSE', stdio: 'stdio', builtin: 'Built-in' };

/** What the card knows beyond the server's JSON: tool counts and the last test, by server id (kept across visits). */
const toolCounts = new Map();
const testResults = new Map();

export function rememberToolCount(id, count) { toolCounts.set(Number(id), count); }

export async function render(main, ctx) {
    const grid = h('div', { class: 'grid', id: 'server-grid', 'aria-live': 'polite' });
    const page = h('div', { class: 'page' },
        h('header', { class: 'page-head' },
            h('div', {}, h('h1', {}, 'MCP servers'),
                h('p', {}, 'Tool servers your assistants can call. Register a server, test it, then choose which of its tools are enabled and which run without asking.')),
            h('div', { class: 'page-actions' },
                button('Add server', { kind: 'primary', iconName: 'plus', id: 'add-server', onClick: () => edit(null) }))),
        grid);
    main.append(page);

    let servers = [];
    grid.append(h('div', { class: 'skeleton' }), h('div', { class: 'skeleton' }), h('div', { class: 'skeleton' }));
    try {
        servers = (await api.get('/mcp-servers')).data;
    } catch (err) {
        grid.replaceChildren(alertBox(err, 'Could not load your MCP servers'));
        return;
    }
    // the list carries the pool's cached tool count; a fresh test result still wins for the session
    servers.filter(s => typeof s.toolCount === 'number' && !toolCounts.has(s.id))
        .forEach(s => rememberToolCount(s.id, s.toolCount));
    draw();

    function draw() {
        if (!servers.length) {
            grid.replaceChildren(h('div', { class: 'card empty', style: 'grid-column: 1 / -1' },
                h('div', { class: 'empty-icon' }, icon('server', 26)),
                h('h2', {}, 'No MCP servers yet'),
                h('p', {}, 'Add a Streamable HTTP or SSE endpoint' + (ctx.isAdmin ? ', or a local command over stdio,' : '')
                    + ' and Switchboard keeps a pooled connection to it for your assistants.'),
                button('Add your first server', { kind: 'primary', iconName: 'plus', onClick: () => edit(null) })));
            return;
        }
        grid.replaceChildren(...servers.map(card));
    }

    function replaceCard(server) {
        const old = grid.querySelector(`[data-server-id="${server.id}"]`);
        if (old) old.replaceWith(card(server));
    }

    function card(server) {
        const result = h('div', { class: 'test-result', 'aria-live': 'polite' });
        if (testResults.has(server.id)) result.append(testResultView(testResults.get(server.id)));
        const testBtn = button('Test connection', { kind: 'ghost', size: 'sm', iconName: 'plug', onClick: () => test() });
        const fullEndpoint = endpointText(server, false);
        const endpoint = endpointText(server);
        const count = toolCounts.get(server.id);
        const shown = displayStatus(server, testResults.get(server.id));
        // shared servers are changed by admins only (the API answers not_owner to anyone else)
        const mayChange = ctx.isAdmin || server.scope !== 'shared';
        const el = h('article', { class: 'card server-card', dataset: { serverId: server.id, serverName: server.name, type: server.type }, 'aria-labelledby': `server-${server.id}-name` },
            h('div', { class: 'card-body' },
                h('div', { class: 'card-title' },
                    h('div', { style: 'min-width:0' },
                        h('h3', { id: `server-${server.id}-name` }, server.name),
                        h('div', { class: 'badges' },
                            h('span', { class: 'badge accent' }, TYPE_LABELS[server.type] || server.type),
                            server.scope === 'shared' ? h('span', { class: 'badge' }, 'Shared with tenant') : null,
                            server.isActive ? null : h('span', { class: 'badge warn' }, 'Inactive'))),
                ),
                h('div', { class: 'endpoint', title: fullEndpoint }, endpoint),
                h('div', {},
                    h('div', { class: 'status-line' },
                        h('span', { class: `dot ${shown.dot}`, 'aria-hidden': 'true' }),
                        h('span', { class: 'status-text', title: shown.title }, shown.text),
                        h('span', { class: 'status-meta tool-count' },
                            count === undefined ? 'Tools: test to discover' : plural(count, 'tool'))),
                    server.status === 'error' && server.lastError ? h('p', { class: 'last-error' }, server.lastError) : null),
                result),
            h('div', { class: 'card-foot' },
                testBtn,
                h('a', { class: 'btn btn-ghost btn-sm', href: `#/servers/${server.id}/tools` }, icon('tools'), 'Tools'),
                h('span', { class: 'spacer' }),
                mayChange ? button('', { kind: 'ghost', size: 'sm', iconName: 'edit', class: 'btn btn-ghost btn-sm btn-icon', 'aria-label': `Edit ${server.name}`, title: 'Edit', onClick: () => edit(server) })
                    : h('span', { class: 'hint', title: 'Shared with your tenant by an admin; only admins can change it' }, 'Managed by admins'),
                mayChange ? button('', { kind: 'ghost', size: 'sm', iconName: 'trash', class: 'btn btn-ghost btn-sm btn-icon danger', 'aria-label': `Delete ${server.name}`, title: 'Delete', onClick: () => remove(server) }) : null));

        async function test() {
            result.replaceChildren(h('div', { class: 'result busy' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }),
                h('div', {}, `Connecting to ${server.name}…`)));
            let outcome;
            try {
                outcome = await busy(testBtn, api.post(`/mcp-servers/${server.id}/connect`), 'Testing…');
            } catch (err) {
                outcome = { success: false, requestError: err };
            }
            testResults.set(server.id, outcome);
            if (outcome.success) rememberToolCount(server.id, outcome.toolCount);
            try {
                const fresh = await api.get(`/mcp-servers/${server.id}`);
                servers = servers.map(s => s.id === fresh.id ? fresh : s);
                replaceCard(fresh);
            } catch {
                result.replaceChildren(testResultView(outcome));
            }
            const again = grid.querySelector(`[data-server-id="${server.id}"] .card-foot button`);
            if (again) again.focus();
        }
        return el;
    }

    async function edit(server) {
        const saved = await openServerModal(ctx, server, servers);
        if (!saved) return;
        if (server) {
            servers = servers.map(s => s.id === saved.id ? saved : s);
            testResults.delete(saved.id);
            toast(`Saved ${saved.name}`);
        } else {
            servers = [...servers, saved];
            toast(`Added ${saved.name}. Test its connection next.`);
        }
        draw();
        const focusTarget = grid.querySelector(`[data-server-id="${saved.id}"] .card-foot button`);
        if (focusTarget) focusTarget.focus();
    }

    async function remove(server) {
        const ok = await confirmDialog({
            title: `Delete ${server.name}?`,
            message: 'Its tools disappear from every assistant that uses it and its live connections are closed. This cannot be undone.',
            confirmLabel: 'Delete server',
        });
        if (!ok) return;
        try {
            await api.del(`/mcp-servers/${server.id}`);
            servers = servers.filter(s => s.id !== server.id);
            toolCounts.delete(server.id);
            testResults.delete(server.id);
            draw();
            toast(`Deleted ${server.name}`);
            document.getElementById('add-server').focus();
        } catch (err) {
            toast(`Could not delete ${server.name}: ${describeError(err).headline}`, 'error');
        }
    }
}

/**
 * The pool's live status (connected / connecting / error / disconnected). A test runs on a connection of its own,
 * so an idle server that was just tested shows the test's verdict instead of "not connected".
 */
function displayStatus(server, test) {
    if (server.status === 'disconnected' && test && !test.requestError) {
        return test.success ? { dot: 'connected', text: 'Reachable', title: 'The last test connected; no connection is open right now' }
            : { dot: 'error', text: 'Unreachable', title: 'The last test failed; see below' };
    }
    return {
        connected: { dot: 'connected', text: 'Connected', title: 'A pooled connection is open' },
        connecting: { dot: 'connecting', text: 'Connecting…', title: 'Switchboard is connecting' },
        error: { dot: 'error', text: 'Connection failed', title: 'The last connection attempt failed' },
    }[server.status] || { dot: 'disconnected', text: 'Idle', title: 'No connection is open; Switchboard connects on first use' };
}

/** The URL, the command line (long paths shortened unless full is asked for), or which built-in server it is. */
export function endpointText(server, short = true) {
    if (server.type === 'builtin') return `Built-in server “${server.command}”, served inside Switchboard`;
    if (server.type !== 'stdio') return server.baseUrl;
    return [server.command, ...(server.args || [])].map(a => quoteArg(short ? shortPath(a) : a)).join(' ');
}

/** Long absolute paths keep their last three parts on the card; the full command line is in the tooltip. */
function shortPath(arg) {
    const parts = String(arg).split('/');
    return arg.startsWith('/') && arg.length > 36 && parts.length > 4 ? '…/' + parts.slice(-3).join('/') : arg;
}

function quoteArg(arg) {
    return /^[\w@%+=:,./…-]+$/.test(arg) ? arg : `'${String(arg).replace(/'/g, `'\\''`)}'`;
}

const FAILURES = {
    dns: ['Host name not found', 'Check the host name in the URL.'],
    connect_refused: ['Nothing answered', 'Check that the server is running and that the URL and port (or the command) are right.'],
    timeout: ['No answer in time', 'The server may be overloaded, or the URL points at something that never answers. Check it, or raise the timeout.'],
    http_status: ['The server refused the request', ''],
    protocol: ['Not a valid MCP answer', 'Check that the URL points at an MCP endpoint and that the type (Streamable HTTP or SSE) matches it.'],
    rpc_error: ['The server answered with an error', 'Check the server’s own log or configuration.'],
    closed: ['The connection closed', 'For a stdio server, check the command and its arguments; its error output is in the Switchboard log.'],
    cancelled: ['The test was cancelled', 'Try again.'],
};

/** The outcome of POST /connect, in words. */
export function testResultView(outcome) {
    if (outcome.requestError) {
        const { headline, detail } = describeError(outcome.requestError);
        return h('div', { class: 'result fail', role: 'status' }, icon('alert'),
            h('div', {}, h('strong', {}, 'Could not run the test'), h('div', { class: 'detail' }, headline + (detail ? ' ' + detail : ''))));
    }
    if (outcome.success) {
        const info = outcome.serverInfo || {};
        const who = [info.name, info.version].filter(Boolean).join(' ') || 'the server';
        return h('div', { class: 'result ok', role: 'status' }, icon('checkCircle'),
            h('div', {}, h('strong', {}, `Connected to ${who}`),
                h('div', { class: 'facts' },
                    h('span', {}, `Protocol ${outcome.protocolVersion}`),
                    h('span', {}, plural(outcome.toolCount, 'tool')),
                    h('span', {}, `${outcome.latencyMs} ms`))));
    }
    const error = outcome.error || {};
    let [title, hint] = FAILURES[error.kind] || ['Connection failed', ''];
    if (error.kind === 'http_status' && error.httpStatus) {
        title = `The server answered HTTP ${error.httpStatus}`;
        hint = error.httpStatus === 401 || error.httpStatus === 403 ? 'Check the credentials in the headers.'
            : error.httpStatus === 404 ? 'Check the path: Streamable HTTP endpoints usually end in /mcp, SSE endpoints in /sse.'
                : 'Check the URL and the server.';
    }
    return h('div', { class: 'result fail', role: 'status', dataset: { kind: error.kind || '' } }, icon('alert'),
        h('div', {}, h('strong', {}, title),
            error.message ? h('div', { class: 'detail' }, error.message) : null,
            hint ? h('div', { class: 'detail' }, hint) : null,
            h('div', { class: 'facts' }, h('span', {}, `after ${outcome.latencyMs} ms`))));
}

/** Fields the API names in its error codes, so the message lands next to the right control. */
const FIELD_OF_CODE = {
    duplicate_name: 'name', invalid_name: 'name', invalid_url: 'baseUrl', invalid_header: 'headers', invalid_headers: 'headers',
    invalid_command: 'command', invalid_args: 'args', invalid_env: 'env', invalid_timeout: 'timeout',
    stdio_requires_admin: 'type', builtin_requires_admin: 'type', shared_requires_admin: 'scope',
};

/** Why a transport is not offered to a user: stdio and built-in servers run on the Switchboard host. */
const ADMIN_ONLY_TYPES = {
    stdio: 'Only admins can add stdio servers: they run a command on the Switchboard host',
    builtin: 'Only admins can add built-in servers: they run inside Switchboard, next to its data',
};

/** The MCP client system's ServerEditModal: resolves with the saved server, or undefined when cancelled. */
export function openServerModal(ctx, server, existing = []) {
    const creating = !server;
    const s = server || { type: 'streamableHttp', isActive: true, timeout: 60, headers: {}, env: {}, args: [], scope: 'user' };
    let typeTouched = !creating;

    const name = h('input', { type: 'text', id: 'srv-name', name: 'name', value: s.name || '', required: true, maxlength: 64, autocomplete: 'off', placeholder: 'e.g. github, filesystem, search' });
    const typeInputs = ['streamableHttp', 'sse', 'stdio', 'builtin'].map(t => {
        const disabled = !ctx.isAdmin && t in ADMIN_ONLY_TYPES;
        return h('label', { title: disabled ? ADMIN_ONLY_TYPES[t] : null },
            h('input', { type: 'radio', name: 'type', value: t, checked: s.type === t, disabled, onchange: () => { typeTouched = true; sync(); } }),
            TYPE_LABELS[t]);
    });
    const url = h('input', { type: 'url', id: 'srv-url', name: 'baseUrl', class: 'mono', value: s.baseUrl || '', placeholder: 'https://tools.example.com/mcp', autocomplete: 'off', spellcheck: 'false',
        oninput: () => {
            if (typeTouched) return;
            const inferred = /\/mcp\/?$/.test(url.value.trim()) ? 'streamableHttp' : 'sse';
            typeInputs.forEach(l => { const i = l.querySelector('input'); i.checked = i.value === inferred; });
        } });
    const headers = keyValueEditor({ id: 'srv-headers', entries: s.headers, itemLabel: 'header', keyLabel: 'Header name', valueLabel: 'Header value', keyPlaceholder: 'Authorization', valuePlaceholder: 'Bearer …', addLabel: 'Add header' });
    const command = h('input', { type: 'text', id: 'srv-command', name: 'command', class: 'mono', value: s.command || '', placeholder: 'npx, node, python, uvx …', autocomplete: 'off', spellcheck: 'false' });
    const args = h('textarea', { id: 'srv-args', name: 'args', class: 'mono', rows: 3, placeholder: '-y\n@modelcontextprotocol/server-filesystem\n/data', spellcheck: 'false' });
    args.value = (s.args || []).join('\n');
    // which built-in server: the names of the built-in servers this admin already sees are offered; the API's
    // invalid_command answer lists every name the deployment has
    const builtinNames = [...new Set([...existing, s].filter(x => x.type === 'builtin' && x.command).map(x => x.command))].sort();
    const builtin = h('input', { type: 'text', id: 'srv-builtin', name: 'builtin', class: 'mono', list: 'srv-builtin-names', autocomplete: 'off', spellcheck: 'false',
        value: s.type === 'builtin' ? s.command || '' : '', placeholder: builtinNames.join(', ') || 'sqlquery' });
    const builtinList = h('datalist', { id: 'srv-builtin-names' }, builtinNames.map(n => h('option', { value: n })));
    const env = keyValueEditor({ id: 'srv-env', entries: s.env, itemLabel: 'variable', keyLabel: 'Variable name', valueLabel: 'Variable value', keyPlaceholder: 'API_TOKEN', valuePlaceholder: 'value', addLabel: 'Add variable' });
    const timeout = h('input', { type: 'number', id: 'srv-timeout', name: 'timeout', min: 1, max: 600, step: 1, value: String(s.timeout ?? 60) });
    const active = h('input', { type: 'checkbox', role: 'switch', id: 'srv-active', checked: s.isActive !== false });
    const shared = h('input', { type: 'checkbox', role: 'switch', id: 'srv-shared', checked: s.scope === 'shared' });

    const fields = {};
    const field = (key, labelText, control, hint, { optional = false, labelFor } = {}) => {
        const error = h('div', { class: 'field-error', id: `srv-${key}-error`, hidden: true });
        const hintEl = hint ? h('div', { class: 'hint', id: `srv-${key}-hint` }, hint) : null;
        if (control.setAttribute && control.tagName !== 'DIV') {
            control.setAttribute('aria-describedby', [hintEl && hintEl.id, error.id].filter(Boolean).join(' '));
        }
        const wrap = h('div', { class: 'field' },
            labelFor === false ? h('div', { class: 'label', id: `srv-${key}-label` }, labelText, optional ? h('span', { class: 'optional' }, ' (optional)') : null)
                : h('label', { for: control.id }, labelText, optional ? h('span', { class: 'optional' }, ' (optional)') : null),
            control, hintEl, error);
        fields[key] = { wrap, error, control };
        return wrap;
    };
    headers.setAttribute('aria-labelledby', 'srv-headers-label');
    env.setAttribute('aria-labelledby', 'srv-env-label');

    const httpPart = h('div', {},
        field('baseUrl', 'URL', url, 'Ends in /mcp: Streamable HTTP. Other URLs (usually …/sse): SSE.'),
        field('headers', 'Headers', headers, 'Sent with every request, e.g. an Authorization header. Values are encrypted at rest; stored values stay hidden and are kept unless you type a new one.', { optional: true, labelFor: false }));
    const stdioPart = h('div', {},
        field('command', 'Command', command, 'Runs on the Switchboard host.'),
        field('args', 'Arguments', args, 'One argument per line.', { optional: true }),
        field('env', 'Environment variables', env, 'Added to Switchboard’s own environment; yours win. Values are encrypted at rest and stay hidden.', { optional: true, labelFor: false }));
    const builtinPart = h('div', {},
        field('builtin', 'Built-in server', builtin, 'Which of Switchboard’s own servers, e.g. sqlquery (NL→SQL) or knowledge (the knowledge base). No URL and no process: it runs inside Switchboard and acts with the rights of each caller.'),
        builtinList);
    const typeGroup = h('fieldset', {}, h('legend', {}, 'Transport'), h('div', { class: 'segmented', role: 'radiogroup', 'aria-label': 'Transport' }, typeInputs),
        ctx.isAdmin ? null : h('div', { class: 'hint', style: 'margin-top:6px' }, 'stdio and built-in servers run on the Switchboard host, so only admins can add them.'));
    fields.type = { wrap: typeGroup, error: h('div', { class: 'field-error', hidden: true }), control: typeInputs[0].querySelector('input') };
    typeGroup.append(fields.type.error);

    const errors = h('div', { 'aria-live': 'assertive' });
    const save = h('button', { type: 'submit', class: 'btn btn-primary' }, creating ? 'Add server' : 'Save changes');

    function currentType() { return typeInputs.map(l => l.querySelector('input')).find(i => i.checked)?.value || 'streamableHttp'; }
    function sync() {
        const type = currentType();
        httpPart.hidden = type === 'stdio' || type === 'builtin';
        stdioPart.hidden = type !== 'stdio';
        builtinPart.hidden = type !== 'builtin';
    }
    function clearErrors() {
        errors.replaceChildren();
        Object.values(fields).forEach(f => { f.wrap.classList.remove('invalid'); f.error.hidden = true; f.error.textContent = ''; });
    }
    function fieldError(key, message) {
        const f = fields[key];
        if (!f) return false;
        f.wrap.classList.add('invalid');
        f.error.textContent = message;
        f.error.hidden = false;
        const focusable = f.control.matches('input,textarea,select') ? f.control : f.control.querySelector('input,textarea');
        if (focusable) focusable.focus();
        return true;
    }

    function body() {
        const type = currentType();
        const b = { name: name.value.trim(), type, isActive: active.checked };
        const t = timeout.value.trim();
        if (t !== '') b.timeout = Number(t);
        if (ctx.isAdmin) b.scope = shared.checked ? 'shared' : 'user';
        if (type === 'stdio') {
            b.command = command.value.trim();
            b.args = args.value.split('\n').map(a => a.trim()).filter(a => a !== '');
            b.env = env.value();
        } else if (type === 'builtin') {
            b.command = builtin.value.trim();
        } else {
            b.baseUrl = url.value.trim();
            b.headers = headers.value();
        }
        return b;
    }

    function check(b) {
        if (!b.name) return ['name', 'Give the server a name; assistants and tool names use it.'];
        if (b.type === 'stdio' && !b.command) return ['command', 'Enter the command that starts the server, e.g. npx or node.'];
        if (b.type === 'builtin' && !b.command) return ['builtin', `Enter which built-in server to register${builtinNames.length ? `, e.g. ${builtinNames[0]}` : ''}.`];
        if ((b.type === 'sse' || b.type === 'streamableHttp') && !b.baseUrl) return ['baseUrl', 'Enter the server’s URL, e.g. https://tools.example.com/mcp.'];
        if (b.timeout !== undefined && (!Number.isInteger(b.timeout) || b.timeout < 1 || b.timeout > 600)) return ['timeout', 'Use a whole number of seconds from 1 to 600.'];
        const map = b.headers || b.env || {};
        if (Object.keys(map).some(k => k === '')) return [b.headers ? 'headers' : 'env', 'Every value needs a name.'];
        return null;
    }

    const { closed } = openModal({
        title: creating ? 'Add MCP server' : `Edit ${s.name}`,
        subtitle: creating ? 'Switchboard connects to it for you and your assistants.' : 'Changes apply to new connections at once.',
        build: (dialog, head) => {
            const form = h('form', { novalidate: true, onsubmit: async (e) => {
                e.preventDefault();
                clearErrors();
                const b = body();
                const problem = check(b);
                if (problem) { fieldError(problem[0], problem[1]); return; }
                try {
                    const saved = await busy(save, creating ? api.post('/mcp-servers', b) : api.put(`/mcp-servers/${server.id}`, b), 'Saving…');
                    dialog.finish(saved);
                } catch (err) {
                    errors.replaceChildren(alertBox(err, creating ? 'The server was not added' : 'The changes were not saved'));
                    let key = FIELD_OF_CODE[err.code] || (err.code === 'missing_field' && /baseUrl/.test(err.message) ? 'baseUrl' : null)
                        || (err.code === 'missing_field' && /command/.test(err.message) ? 'command' : null);
                    if (key === 'command' && b.type === 'builtin') key = 'builtin'; // a built-in server's name is its command
                    if (!(key && fieldError(key, describeError(err).headline))) errors.querySelector('.alert')?.scrollIntoView({ block: 'nearest' });
                }
            } },
                h('div', { class: 'modal-body' },
                    errors,
                    field('name', 'Name', name, 'Shown on cards and in tool names (mcp__name__tool).'),
                    typeGroup,
                    httpPart,
                    stdioPart,
                    builtinPart,
                    h('div', { class: 'row' },
                        field('timeout', 'Tool-call timeout (seconds)', timeout, 'From 1 to 600.'),
                        h('div', { class: 'field' }, h('div', { class: 'label' }, 'Status'),
                            h('label', { class: 'switch', for: 'srv-active' }, active, h('span', { class: 'switch-text' }, 'Active', h('small', {}, 'Inactive servers are not offered to assistants'))))),
                    ctx.isAdmin ? h('div', { class: 'field' },
                        h('label', { class: 'switch', for: 'srv-shared' }, shared, h('span', { class: 'switch-text' }, 'Share with everyone in the tenant',
                            h('small', {}, 'Every user of this tenant can use it; only admins can change it')))) : null),
                h('div', { class: 'modal-foot' }, button('Cancel', { onClick: () => dialog.close() }), save));
            return [head, form];
        },
    });
    sync();
    name.focus();
    return closed;
}
