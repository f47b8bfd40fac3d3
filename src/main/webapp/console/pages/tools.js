// One server's tools: enable/disable and auto-approve, each saved at once (PUT disabledTools / autoApproveTools).
import { api } from '../api.js';
import { alertBox, button, describeError, h, icon, plural, toast } from '../ui.js';
import { openServerModal, rememberToolCount, TYPE_LABELS } from './servers.js';

export async function render(main, ctx, idText) {
    const id = Number(idText);
    const head = h('header', { class: 'page-head' });
    const body = h('div', { class: 'card', id: 'tool-panel' }, h('div', { class: 'loading' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), 'Connecting to the server and listing its tools…'));
    main.append(h('div', { class: 'page' },
        h('div', { class: 'crumbs' }, h('a', { href: '#/servers' }, '← MCP servers')),
        head, body));

    let server;
    try {
        server = await api.get(`/mcp-servers/${id}`);
    } catch (err) {
        head.append(h('h1', {}, 'Tools'));
        body.replaceChildren(h('div', { class: 'section-body' }, alertBox(err, 'Could not load this server')));
        return;
    }
    // shared servers are changed by admins only (the API answers not_owner to anyone else): users see the settings
    const readOnly = !ctx.isAdmin && server.scope === 'shared';
    head.append(
        h('div', {}, h('h1', {}, `${server.name} · tools`),
            h('p', {}, 'Disabled tools are never offered to assistants. Auto-approved tools run without asking for confirmation in chat; the others wait for a person to approve each call.')),
        h('div', { class: 'page-actions' }, h('span', { class: 'badge accent' }, TYPE_LABELS[server.type] || server.type)));
    const managedNotice = readOnly ? h('div', { class: 'alert info', id: 'tools-managed', role: 'note' }, icon('info'),
        h('div', {}, h('strong', {}, 'Managed by admins.'),
            h('span', {}, ' An admin shared this server with your tenant; only admins can enable, disable or auto-approve its tools. The switches show what applies to you.'))) : null;

    await load();

    async function load() {
        let tools;
        try {
            tools = (await api.get(`/mcp-servers/${id}/tools`)).data;
        } catch (err) {
            const unreachable = err.code === 'backend_unavailable';
            body.replaceChildren(h('div', { class: 'section-body' },
                alertBox(err, unreachable ? 'The server cannot be reached, so its tools cannot be listed' : 'Could not list the tools'),
                h('div', { class: 'inline-form' },
                    button('Try again', { iconName: 'plug', onClick: () => { body.replaceChildren(h('div', { class: 'loading' }, h('span', { class: 'spinner' }), 'Connecting…')); load(); } }),
                    unreachable && !readOnly ? button('Edit server', { kind: 'ghost', iconName: 'edit', onClick: async () => {
                        const saved = await openServerModal(ctx, server, []);
                        if (saved) { server = saved; toast(`Saved ${saved.name}`); load(); }
                    } }) : null)));
            return;
        }
        rememberToolCount(id, tools.length);
        draw(tools);
    }

    function draw(tools) {
        const disabled = new Set(server.disabledTools || []);
        const autoApprove = new Set(server.autoApproveTools || []);
        const search = h('input', { type: 'search', id: 'tool-search', placeholder: 'Filter tools', 'aria-label': 'Filter tools by name or description' });
        const count = h('span', { class: 'count', 'aria-live': 'polite' });
        const tbody = h('tbody');

        const rows = tools.map(tool => {
            const enabled = h('input', { type: 'checkbox', role: 'switch', checked: !disabled.has(tool.name), disabled: readOnly, 'aria-label': `Enable ${tool.name}`, dataset: { tool: tool.name, setting: 'enabled' } });
            const approve = h('input', { type: 'checkbox', role: 'switch', checked: autoApprove.has(tool.name), disabled: readOnly, 'aria-label': `Auto-approve ${tool.name}`, dataset: { tool: tool.name, setting: 'autoApprove' } });
            const row = h('tr', { class: disabled.has(tool.name) ? 'tool-off' : '', dataset: { tool: tool.name } },
                h('td', {}, h('div', { class: 'tool-name' }, tool.name), h('div', { class: 'tool-display', title: 'Name the model sees' }, tool.displayName)),
                h('td', { class: 'tool-desc' }, tool.description || h('span', { style: 'color:var(--faint)' }, 'No description'), params(tool.inputSchema)),
                h('td', {}, h('label', { class: 'switch' }, enabled, h('span', { class: 'sr-only' }, 'Enabled'))),
                h('td', {}, h('label', { class: 'switch' }, approve, h('span', { class: 'sr-only' }, 'Auto-approve'))));
            enabled.addEventListener('change', () => save(enabled, 'disabledTools', disabled, tool.name, !enabled.checked, row));
            approve.addEventListener('change', () => save(approve, 'autoApproveTools', autoApprove, tool.name, approve.checked, row));
            row.searchText = `${tool.name} ${tool.description || ''}`.toLowerCase();
            return row;
        });
        tbody.append(...rows);

        function filter() {
            const q = search.value.trim().toLowerCase();
            let shown = 0;
            for (const row of rows) {
                row.hidden = q !== '' && !row.searchText.includes(q);
                if (!row.hidden) shown++;
            }
            const on = tools.length - disabled.size;
            count.textContent = q ? `${shown} of ${plural(tools.length, 'tool')}` : `${plural(tools.length, 'tool')} · ${on} enabled · ${autoApprove.size} auto-approved`;
        }
        search.addEventListener('input', filter);

        /** Saves one list at once; on failure the switch goes back and the reason is shown. */
        async function save(input, field, set, name, add, row) {
            const before = new Set(set);
            if (add) set.add(name); else set.delete(name);
            input.disabled = true;
            input.setAttribute('aria-busy', 'true');
            try {
                const updated = await api.put(`/mcp-servers/${id}`, { [field]: [...set] });
                server = updated;
                set.clear();
                (updated[field] || []).forEach(n => set.add(n));
                if (field === 'disabledTools') row.classList.toggle('tool-off', set.has(name));
                const what = field === 'disabledTools' ? (set.has(name) ? 'disabled' : 'enabled') : (set.has(name) ? 'auto-approved' : 'needs approval');
                toast(`${name} ${what}`);
            } catch (err) {
                set.clear();
                before.forEach(n => set.add(n));
                input.checked = field === 'disabledTools' ? !set.has(name) : set.has(name);
                toast(`Not saved: ${describeError(err).headline}`, 'error');
            } finally {
                input.disabled = false;
                input.removeAttribute('aria-busy');
                input.focus();
                filter();
            }
        }

        if (!tools.length) {
            body.replaceChildren(h('div', { class: 'empty' }, h('div', { class: 'empty-icon' }, icon('tools', 26)),
                h('h2', {}, 'This server offers no tools'), h('p', {}, 'It answered, but its tool list is empty.')));
            return;
        }
        // replaceChildren, unlike h(), writes a null child as the text "null": owners and admins get no notice
        body.replaceChildren(...[managedNotice].filter(Boolean),
            h('div', { class: 'toolbar' }, search, count),
            h('div', { class: 'table-wrap' }, h('table', { class: 'data', id: 'tool-table' },
                h('caption', { class: 'sr-only' }, `Tools of ${server.name}`),
                h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Tool'), h('th', { scope: 'col' }, 'Description'),
                    h('th', { scope: 'col' }, 'Enabled'), h('th', { scope: 'col' }, 'Auto-approve'))),
                tbody)));
        filter();
    }
}

/** The tool's arguments from its input schema: name and type, required ones highlighted (the gateway page's details too). */
export function params(schema) {
    const properties = schema && typeof schema.properties === 'object' ? Object.entries(schema.properties) : [];
    if (!properties.length) return null;
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    return h('div', { class: 'params', 'aria-label': 'Arguments' }, properties.slice(0, 8).map(([name, prop]) =>
        h('span', { class: 'param' + (required.has(name) ? ' required' : ''), title: [(prop && prop.description) || '', required.has(name) ? '(required)' : '(optional)'].join(' ').trim() },
            `${name}${prop && prop.type ? ': ' + (Array.isArray(prop.type) ? prop.type.join('|') : prop.type) : ''}`)),
        properties.length > 8 ? h('span', { class: 'param' }, `+${properties.length - 8} more`) : null);
}
