// Table permissions (admins): who may read which tables of the query database, per tenant, through
// /api/query/permissions. Grants go to a local user or to role "user"; the role holds its configured default
// (query.role.user) until an admin changes it in that tenant. Every change applies to the Query page, the query
// dialect and the sqlquery tools at their next request. The API checks every value and its words are shown as they are.
import { api } from '../api.js';
import { adminOnlyNotice, alertBox, busy, button, confirmDialog, describeError, formatDate, h, icon, plural, toast } from '../ui.js';

const PAGE_SIZE = 25;
const NAMED = ['table:*:read', 'schema:read', 'session:manage', 'admin:*'];

export async function render(main, ctx) {
    if (!ctx.isAdmin) {
        main.append(adminOnlyNotice('database', 'Table permissions are managed by admins',
            'The Query page lists the tables you may read; ask an admin if one you need is missing.'));
        return;
    }
    const tenant = h('input', { type: 'text', id: 'perm-tenant', value: ctx.me.tenant, list: 'perm-tenants', autocomplete: 'off', spellcheck: 'false' });
    const tenants = h('datalist', { id: 'perm-tenants' });
    const kind = h('select', { id: 'perm-kind' }, h('option', { value: 'role' }, 'Role user'), h('option', { value: 'user' }, 'A user'));
    const user = h('input', { type: 'text', id: 'perm-user', list: 'perm-users', autocomplete: 'off', spellcheck: 'false', placeholder: 'username' });
    const users = h('datalist', { id: 'perm-users' });
    const userField = h('div', { class: 'field', hidden: true }, h('label', { for: 'perm-user' }, 'User'), user, users);
    const permission = h('input', { type: 'text', id: 'perm-permission', list: 'perm-names', autocomplete: 'off', spellcheck: 'false', placeholder: 'table:orders:read' });
    const names = h('datalist', { id: 'perm-names' }, NAMED.map(n => h('option', { value: n })));
    const grantBtn = h('button', { type: 'submit', class: 'btn btn-primary', id: 'perm-grant' }, icon('plus'), 'Grant');
    const formErrors = h('div', { id: 'perm-form-error', 'aria-live': 'assertive' });

    const body = h('tbody');
    const table = h('table', { class: 'data', id: 'perm-table' },
        h('caption', { class: 'sr-only' }, 'Grants of the tenant'),
        h('thead', {}, h('tr', {}, ['Who', 'Permission', 'Source', 'Granted', 'Actions'].map(c => h('th', { scope: 'col', class: c === 'Actions' ? 'num' : null }, c)))),
        body);
    const listError = h('div', { id: 'perm-error' });
    const heading = h('h2', { id: 'perm-list-title' }, 'Grants');
    const count = h('span', { class: 'count', id: 'perm-count', 'aria-live': 'polite' });
    const prev = button('Previous', { size: 'sm', id: 'perm-prev', onClick: () => load(offset - PAGE_SIZE) });
    const next = button('Next', { size: 'sm', id: 'perm-next', onClick: () => load(offset + PAGE_SIZE) });

    const checkUser = h('input', { type: 'text', id: 'perm-check-user', list: 'perm-users', autocomplete: 'off', spellcheck: 'false', placeholder: 'username' });
    const checkBtn = h('button', { type: 'submit', class: 'btn', id: 'perm-check' }, icon('search'), 'Show');
    const effective = h('div', { id: 'perm-effective', 'aria-live': 'polite' });

    main.append(h('div', { class: 'page page-wide' },
        h('header', { class: 'page-head' },
            h('div', {}, h('h1', {}, 'Table permissions'),
                h('p', {}, 'Who may read which tables of the query database, on the Query page, over the query dialect and through the sqlquery tools. Grants are per tenant; role user holds its configured default until you change it.'))),
        h('section', { class: 'card section', 'aria-labelledby': 'perm-grant-title' },
            h('div', { class: 'section-head' }, h('div', {}, h('h2', { id: 'perm-grant-title' }, 'Grant a permission'),
                h('p', {}, 'table:{name}:read for one table, table:*:read for every table, schema:read to browse the schema, session:manage for query sessions.'))),
            h('div', { class: 'section-body' }, formErrors,
                h('form', { class: 'inline-form', novalidate: true, onsubmit: grant },
                    h('div', { class: 'field' }, h('label', { for: 'perm-tenant' }, 'Tenant'), tenant, tenants),
                    h('div', { class: 'field' }, h('label', { for: 'perm-kind' }, 'To'), kind),
                    userField,
                    h('div', { class: 'field' }, h('label', { for: 'perm-permission' }, 'Permission'), permission, names),
                    grantBtn))),
        h('section', { class: 'card section', 'aria-labelledby': 'perm-list-title' },
            h('div', { class: 'toolbar' }, heading, count),
            listError,
            h('div', { class: 'table-wrap' }, table),
            h('div', { class: 'pager', 'aria-label': 'Pages of grants', role: 'group' }, prev, next)),
        h('section', { class: 'card section', 'aria-labelledby': 'perm-check-title' },
            h('div', { class: 'section-head' }, h('div', {}, h('h2', { id: 'perm-check-title' }, 'What a user may do'),
                h('p', {}, 'Their grants and their role\u2019s, with table:*:read spelled out.'))),
            h('div', { class: 'section-body' },
                h('form', { class: 'inline-form', novalidate: true, onsubmit: check },
                    h('div', { class: 'field' }, h('label', { for: 'perm-check-user' }, 'User'), checkUser), checkBtn),
                effective))));

    kind.addEventListener('change', () => { userField.hidden = kind.value !== 'user'; if (!userField.hidden) user.focus(); });
    tenant.addEventListener('change', () => { load(0); offerUsers(); });

    let offset = 0;
    let knownUsers = [];
    await Promise.all([offerChoices(), load(0)]);

    /** What the fields suggest: tenants (with a row or with users), users, the query database's tables. */
    async function offerChoices() {
        const [tenantPage, userList, schema] = await Promise.all([
            api.get('/tenants?limit=200').catch(() => ({ data: [] })),
            api.get('/users').catch(() => []),
            api.get('/query/schema/tables').catch(() => ({ tables: [] }))]);
        knownUsers = userList;
        const ids = new Set([ctx.me.tenant, ...tenantPage.data.map(t => t.id), ...userList.map(u => u.tenant)]);
        tenants.replaceChildren(...[...ids].sort().map(id => h('option', { value: id })));
        names.replaceChildren(...NAMED.map(n => h('option', { value: n })), ...schema.tables.map(t => h('option', { value: `table:${t.name}:read` })));
        offerUsers();
    }

    function offerUsers() {
        users.replaceChildren(...knownUsers.filter(u => u.tenant === tenant.value.trim()).map(u => h('option', { value: u.username })));
    }

    function query(extra) {
        const params = new URLSearchParams({ tenant: tenant.value.trim(), ...extra });
        return params.toString();
    }

    async function load(from) {
        listError.replaceChildren();
        table.setAttribute('aria-busy', 'true');
        try {
            let page = await api.get(`/query/permissions?${query({ offset: Math.max(0, from), limit: PAGE_SIZE })}`);
            if (!page.data.length && page.offset > 0) page = await api.get(`/query/permissions?${query({ offset: Math.max(0, page.offset - PAGE_SIZE), limit: PAGE_SIZE })}`);
            offset = page.offset;
            draw(page);
        } catch (err) {
            body.replaceChildren();
            count.textContent = '';
            listError.replaceChildren(alertBox(err, 'Could not load the grants'));
        } finally {
            table.removeAttribute('aria-busy');
        }
    }

    function draw(page) {
        heading.textContent = `Grants in ${page.tenant}`;
        const last = page.offset + page.data.length;
        count.textContent = page.total ? `${page.offset + 1}\u2013${last} of ${plural(page.total, 'grant')}` : '';
        prev.disabled = page.offset === 0;
        next.disabled = last >= page.total;
        prev.parentElement.hidden = page.total <= PAGE_SIZE;
        if (!page.data.length) {
            body.replaceChildren(h('tr', {}, h('td', { colspan: 5 }, h('div', { class: 'empty', style: 'padding:28px' },
                h('h2', {}, 'No grants'), h('p', {}, 'Nobody in this tenant may read a table of the query database. Grant a permission above.')))));
            return;
        }
        body.replaceChildren(...page.data.map(g => {
            const who = g.user ? `user ${g.user}` : `role ${g.role}`;
            return h('tr', { dataset: { grantee: who, permission: g.permission, source: g.source } },
                h('td', {}, g.user ? h('span', {}, g.user) : h('span', { class: 'badge accent' }, `role ${g.role}`)),
                h('td', {}, h('code', {}, g.permission)),
                h('td', {}, g.source === 'default' ? h('span', { class: 'badge', title: 'query.role.user of the configuration' }, 'Default')
                    : g.grantedBy.startsWith('query.role.') ? h('span', { title: 'Was the default when this role\u2019s grants were first changed' }, `From ${g.grantedBy}`)
                        : h('span', {}, `By ${g.grantedBy}`)),
                h('td', { class: 'nowrap' }, g.grantedAt ? formatDate(g.grantedAt) : '\u2014'),
                h('td', { class: 'num' }, button('Revoke', { kind: 'ghost', size: 'sm', class: 'btn btn-ghost btn-sm danger',
                    'aria-label': `Revoke ${g.permission} from ${who}`, onClick: () => revoke(g, who) })));
        }));
    }

    async function grant(e) {
        e.preventDefault();
        formErrors.replaceChildren();
        const wanted = permission.value.trim();
        if (!wanted) {
            formErrors.replaceChildren(h('div', { class: 'alert', role: 'alert' }, icon('alert'), h('div', {}, h('strong', {}, 'Name the permission to grant.'),
                h('span', {}, 'For example table:orders:read.'))));
            permission.focus();
            return;
        }
        const to = kind.value === 'user' ? { user: user.value.trim() } : { role: 'user' };
        if (kind.value === 'user' && !to.user) {
            formErrors.replaceChildren(h('div', { class: 'alert', role: 'alert' }, icon('alert'), h('div', {}, h('strong', {}, 'Name the user who gets it.'))));
            user.focus();
            return;
        }
        try {
            const granted = await busy(grantBtn, api.post('/query/permissions', { tenant: tenant.value.trim(), ...to, permission: wanted }), 'Granting…');
            toast(`${granted.permission} granted to ${granted.user ? granted.user : 'role ' + granted.role}`);
            permission.value = '';
            await load(offset);
            permission.focus();
        } catch (err) {
            formErrors.replaceChildren(alertBox(err, 'The permission was not granted'));
        }
    }

    async function revoke(g, who) {
        const defaultNote = g.source === 'default'
            ? ' Role user then holds the rest of its default as grants of this tenant, and the configured default no longer applies here.' : '';
        if (!await confirmDialog({ title: `Revoke ${g.permission}?`, message: `${who} loses ${g.permission} at its next request.${defaultNote}`, confirmLabel: 'Revoke' })) return;
        const params = g.user ? { user: g.user, permission: g.permission } : { role: g.role, permission: g.permission };
        try {
            await api.del(`/query/permissions?${query(params)}`);
            toast(`Revoked ${g.permission} from ${who}`);
            await load(offset);
        } catch (err) {
            toast(`Could not revoke ${g.permission}: ${describeError(err).headline}`, 'error');
        }
    }

    async function check(e) {
        e.preventDefault();
        const name = checkUser.value.trim();
        if (!name) { checkUser.focus(); return; }
        try {
            const seen = await busy(checkBtn, api.get(`/query/permissions/effective?user=${encodeURIComponent(name)}`), 'Looking…');
            effective.replaceChildren(h('p', { class: 'hint', style: 'margin-top:12px' },
                `${seen.user} (${seen.roles.join(', ')}, tenant ${seen.tenant}) holds ${plural(seen.permissions.length, 'permission')}:`),
            seen.permissions.length ? h('div', { class: 'chips' }, seen.permissions.map(p => h('code', { class: 'chip' }, p)))
                : h('p', { class: 'hint' }, 'None: the Query page shows them no table.'));
        } catch (err) {
            effective.replaceChildren(alertBox(err, `Could not look up ${name}`));
        }
    }
}
