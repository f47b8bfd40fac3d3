// Who am I, and the caller's API keys: create (the key is shown once), list, revoke.
import { api } from '../api.js';
import { alertBox, busy, button, confirmDialog, describeError, formatDate, h, icon, openModal, relativeTime, toast } from '../ui.js';

export async function render(main, ctx) {
    const me = ctx.me;
    const keyName = h('input', { type: 'text', id: 'key-name', maxlength: 100, autocomplete: 'off', placeholder: 'e.g. CI pipeline, Cursor on my laptop', 'aria-describedby': 'key-name-error' });
    const nameError = h('div', { class: 'field-error', id: 'key-name-error', hidden: true });
    const createBtn = h('button', { type: 'submit', class: 'btn btn-primary' }, icon('plus'), 'Create key');
    const tableHost = h('div', { id: 'key-table', 'aria-live': 'polite' });
    const formErrors = h('div', { 'aria-live': 'assertive' });

    main.append(h('div', { class: 'page' },
        h('header', { class: 'page-head' },
            h('div', {}, h('h1', {}, 'API keys'),
                h('p', {}, 'Keys let programs call Switchboard as you: send one as “Authorization: Bearer <key>”. A key is shown once, when it is created; revoke it as soon as it is no longer needed.'))),
        h('section', { class: 'card section', 'aria-labelledby': 'whoami-title' },
            h('div', { class: 'section-head' }, h('div', {}, h('h2', { id: 'whoami-title' }, 'Signed in as'))),
            h('div', { class: 'section-body' }, h('dl', { class: 'kv-list', id: 'whoami' },
                h('dt', {}, 'User'), h('dd', {}, me.subject),
                h('dt', {}, 'Tenant'), h('dd', {}, me.tenant),
                h('dt', {}, 'Roles'), h('dd', {}, me.roles.join(', ') || '—'),
                h('dt', {}, 'Signed in with'), h('dd', {}, me.tokenUse === 'api_key' ? 'an API key' : 'a session token')))),
        h('section', { class: 'card section', 'aria-labelledby': 'keys-title' },
            h('div', { class: 'section-head' }, h('div', {}, h('h2', { id: 'keys-title' }, 'Your keys'), h('p', {}, 'Keys expire after a year; revoked keys stop working at once.'))),
            h('div', { class: 'section-body' },
                formErrors,
                h('form', { class: 'inline-form', novalidate: true, onsubmit: create },
                    h('div', { class: 'field' }, h('label', { for: 'key-name' }, 'New key name'), keyName, nameError),
                    createBtn)),
            tableHost)));

    let keys = [];
    await load();

    async function load() {
        try {
            keys = await api.get('/api-keys');
            draw();
        } catch (err) {
            tableHost.replaceChildren(h('div', { class: 'section-body' }, alertBox(err, 'Could not load your API keys')));
        }
    }

    function draw() {
        if (!keys.length) {
            tableHost.replaceChildren(h('div', { class: 'empty', style: 'padding:28px' }, h('p', {}, 'No keys yet. Name one above to create it.')));
            return;
        }
        const sorted = [...keys].sort((a, b) => (a.revoked - b.revoked) || b.createdAt.localeCompare(a.createdAt));
        tableHost.replaceChildren(h('div', { class: 'table-wrap' }, h('table', { class: 'data keys' },
            h('caption', { class: 'sr-only' }, 'Your API keys'),
            h('thead', {}, h('tr', {}, ['Name', 'Ends in', 'Created', 'Last used', 'Expires', 'Status', ''].map(t => h('th', { scope: 'col' }, t || h('span', { class: 'sr-only' }, 'Actions'))))),
            h('tbody', {}, sorted.map(k => h('tr', { class: k.revoked ? 'revoked' : '', dataset: { keyId: k.id, keyName: k.name } },
                h('td', { style: 'font-weight:560' }, k.name),
                h('td', {}, h('code', { title: 'The end of the key, to recognise it' }, k.prefix)),
                h('td', {}, formatDate(k.createdAt)),
                h('td', {}, relativeTime(k.lastUsedAt)),
                h('td', {}, formatDate(k.expiresAt)),
                h('td', {}, k.revoked ? h('span', { class: 'badge danger' }, 'Revoked') : new Date(k.expiresAt) < new Date() ? h('span', { class: 'badge warn' }, 'Expired') : h('span', { class: 'badge ok' }, 'Active')),
                h('td', { class: 'num' }, k.revoked ? null : button('Revoke', { kind: 'ghost', size: 'sm', class: 'btn btn-ghost btn-sm danger', 'aria-label': `Revoke ${k.name}`, onClick: () => revoke(k) }))))))));
    }

    async function create(e) {
        e.preventDefault();
        formErrors.replaceChildren();
        nameError.hidden = true;
        keyName.parentElement.classList.remove('invalid');
        const name = keyName.value.trim();
        if (!name) {
            keyName.parentElement.classList.add('invalid');
            nameError.textContent = 'Name the key after where it will be used, so you know what to revoke later.';
            nameError.hidden = false;
            keyName.focus();
            return;
        }
        let created;
        try {
            created = await busy(createBtn, api.post('/api-keys', { name }), 'Creating…');
        } catch (err) {
            formErrors.replaceChildren(alertBox(err, 'The key was not created'));
            return;
        }
        keyName.value = '';
        keys = [...keys, created];
        draw();
        await showOnce(created);
        keyName.focus();
    }

    async function revoke(k) {
        if (!await confirmDialog({ title: `Revoke ${k.name}?`, message: 'Programs using this key are refused from now on. This cannot be undone.', confirmLabel: 'Revoke key' })) return;
        try {
            await api.del(`/api-keys/${k.id}`);
            toast(`Revoked ${k.name}`);
            await load();
            keyName.focus();
        } catch (err) {
            toast(`Could not revoke ${k.name}: ${describeError(err).headline}`, 'error');
        }
    }
}

/** The new key, once, with a copy button. */
function showOnce(created) {
    const value = h('input', { type: 'text', id: 'new-key-value', readonly: true, value: created.key, 'aria-label': 'Your new API key', spellcheck: 'false' });
    const copied = h('div', { class: 'hint', 'aria-live': 'polite', id: 'copy-status', style: 'margin-top:8px' });
    const copy = button('Copy', { kind: 'primary', iconName: 'copy', id: 'copy-key', onClick: async () => {
        let ok = false;
        try {
            await navigator.clipboard.writeText(created.key);
            ok = true;
        } catch {
            value.focus();
            value.select();
            try { ok = document.execCommand('copy'); } catch { ok = false; }
        }
        copied.textContent = ok ? 'Copied to the clipboard.' : 'Your browser did not allow copying: the key is selected, press Ctrl+C (⌘C).';
        if (ok) copy.replaceChildren(icon('check'), 'Copied');
    } });
    const { closed } = openModal({
        title: `Key “${created.name}” created`, size: 'small',
        build: (dialog, head) => [head,
            h('div', { class: 'modal-body' },
                h('div', { class: 'alert warn' }, icon('alert'), h('div', {}, h('strong', {}, 'Copy it now'), 'This is the only time the key is shown. Store it in a secret manager; if it is lost, revoke it and create a new one.')),
                h('div', { class: 'secret-box' }, value, copy), copied,
                h('p', { class: 'hint', style: 'margin:14px 0 16px;color:var(--muted);font-size:12.5px' }, `Expires ${formatDate(created.expiresAt)}.`)),
            h('div', { class: 'modal-foot' }, button('Done', { id: 'key-done', onClick: () => dialog.close() }))],
    });
    value.focus();
    value.select();
    return closed;
}
