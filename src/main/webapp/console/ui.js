// Small DOM helpers shared by the pages: element builder, icons, toasts, dialogs, key-value editor.

/** h('div', {class: 'x', onclick: fn}, child, [children], 'text') -> Element. Null/false children are skipped. */
export function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
        if (value === null || value === undefined || value === false) continue;
        if (key.startsWith('on') && typeof value === 'function') {
            el.addEventListener(key.slice(2).toLowerCase(), value);
        } else if (key === 'class') {
            el.className = value;
        } else if (key === 'dataset') {
            Object.assign(el.dataset, value);
        } else if (key === 'html') {
            el.innerHTML = value; // only ever used with our own constant SVG markup
        } else if (key === 'value' || key === 'checked' || key === 'disabled' || key === 'selected') {
            el[key] = value;
        } else {
            el.setAttribute(key, value === true ? '' : String(value));
        }
    }
    append(el, children);
    return el;
}

function append(el, children) {
    for (const child of children) {
        if (child === null || child === undefined || child === false) continue;
        if (Array.isArray(child)) append(el, child);
        else el.append(child instanceof Node ? child : String(child));
    }
}

const ICONS = {
    server: '<rect x="3" y="4" width="18" height="7" rx="2"/><rect x="3" y="13" width="18" height="7" rx="2"/><path d="M7 7.5h.01M7 16.5h.01"/>',
    bot: '<rect x="4" y="8" width="16" height="12" rx="3"/><path d="M12 4v4M9 13h.01M15 13h.01M9.5 16.5h5"/>',
    key: '<circle cx="8" cy="15" r="4"/><path d="m11 12 9-9M17 6l3 3M15 8l2 2"/>',
    plus: '<path d="M12 5v14M5 12h14"/>',
    edit: '<path d="M4 20h4L19 9l-4-4L4 16z"/><path d="m14 6 4 4"/>',
    trash: '<path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3"/>',
    plug: '<path d="M9 2v6M15 2v6M6 8h12v3a6 6 0 0 1-12 0zM12 17v5"/>',
    tools: '<path d="M14.7 6.3a4 4 0 0 0-5.4 5.4L3 18l3 3 6.3-6.3a4 4 0 0 0 5.4-5.4l-2.5 2.5-2.4-.6-.6-2.4z"/>',
    check: '<path d="m5 12 5 5L20 7"/>',
    checkCircle: '<circle cx="12" cy="12" r="9"/><path d="m8 12 3 3 5-6"/>',
    alert: '<circle cx="12" cy="12" r="9"/><path d="M12 7.5v5.5M12 16.5h.01"/>',
    info: '<circle cx="12" cy="12" r="9"/><path d="M12 11v5.5M12 7.5h.01"/>',
    x: '<path d="M6 6l12 12M18 6 6 18"/>',
    copy: '<rect x="8" y="8" width="12" height="12" rx="2"/><path d="M16 8V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h2"/>',
    logout: '<path d="M15 4h3a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-3M10 17l5-5-5-5M15 12H4"/>',
    book: '<path d="M4 5a2 2 0 0 1 2-2h13v16H6a2 2 0 0 0-2 2zM4 19V5M8 7h7"/>',
    back: '<path d="M15 6l-6 6 6 6"/>',
    search: '<circle cx="11" cy="11" r="7"/><path d="m20 20-4-4"/>',
    chat: '<path d="M5 5h14a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-7l-5 4v-4H5a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2z"/>',
    send: '<path d="M4 12 20 4l-4 16-4-7z"/><path d="m12 13 8-9"/>',
    stop: '<rect x="6" y="6" width="12" height="12" rx="2"/>',
    activity: '<path d="M3 12h4l3 8 4-16 3 8h4"/>',
    gateway: '<circle cx="12" cy="12" r="3"/><circle cx="4" cy="5" r="2"/><circle cx="20" cy="5" r="2"/><circle cx="4" cy="19" r="2"/><circle cx="20" cy="19" r="2"/><path d="m6 6.5 3.8 3.6M18 6.5l-3.8 3.6M6 17.5l3.8-3.6M18 17.5l-3.8-3.6"/>',
    refresh: '<path d="M20 11a8 8 0 0 0-14.6-4.5L4 8M4 4v4h4M4 13a8 8 0 0 0 14.6 4.5L20 16M20 20v-4h-4"/>',
    chevron: '<path d="m9 6 6 6-6 6"/>',
    clock: '<circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 2"/>',
    shield: '<path d="M12 3 4.5 6v6c0 4.4 3.2 7.8 7.5 9 4.3-1.2 7.5-4.6 7.5-9V6z"/><path d="m9 12 2 2 4-4"/>',
    database: '<ellipse cx="12" cy="5.5" rx="7.5" ry="2.5"/><path d="M4.5 5.5v13c0 1.4 3.4 2.5 7.5 2.5s7.5-1.1 7.5-2.5v-13M4.5 12c0 1.4 3.4 2.5 7.5 2.5s7.5-1.1 7.5-2.5"/>',
    download: '<path d="M12 4v11M7 10l5 5 5-5M5 20h14"/>',
    building: '<path d="M4 21V5a2 2 0 0 1 2-2h8a2 2 0 0 1 2 2v16M16 9h2a2 2 0 0 1 2 2v10M3 21h18M8 7h4M8 11h4M8 15h4"/>',
    ban: '<circle cx="12" cy="12" r="9"/><path d="m6 6 12 12"/>',
    file: '<path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z"/><path d="M14 3v5h5M9 13h6M9 17h6"/>',
    upload: '<path d="M12 16V5M7 10l5-5 5 5M5 20h14"/>',
};

/** An inline SVG icon (stroke style, currentColor). */
export function icon(name, size = 18) {
    const span = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    span.setAttribute('viewBox', '0 0 24 24');
    span.setAttribute('width', size);
    span.setAttribute('height', size);
    span.setAttribute('fill', 'none');
    span.setAttribute('stroke', 'currentColor');
    span.setAttribute('stroke-width', '1.8');
    span.setAttribute('stroke-linecap', 'round');
    span.setAttribute('stroke-linejoin', 'round');
    span.setAttribute('aria-hidden', 'true');
    span.setAttribute('focusable', 'false');
    span.innerHTML = ICONS[name] || '';
    return span;
}

export function logo(size = 30) {
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', '0 0 32 32');
    svg.setAttribute('width', size);
    svg.setAttribute('height', size);
    svg.setAttribute('aria-hidden', 'true');
    svg.innerHTML = '<defs><linearGradient id="sbg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#6d65f5"/>'
        + '<stop offset="1" stop-color="#22a39f"/></linearGradient></defs><rect width="32" height="32" rx="8" fill="url(#sbg)"/>'
        + '<g stroke="#fff" stroke-width="2.2" stroke-linecap="round" fill="none"><path d="M9 11h6l3 10h5"/><path d="M9 21h6"/>'
        + '</g><g fill="#fff"><circle cx="9" cy="11" r="2"/><circle cx="9" cy="21" r="2"/><circle cx="23" cy="21" r="2"/>'
        + '<circle cx="23" cy="11" r="2"/></g>';
    return svg;
}

export function button(label, { kind = '', iconName, onClick, type = 'button', size = '', title, ...rest } = {}) {
    return h('button', {
        type, class: ['btn', kind && `btn-${kind}`, size && `btn-${size}`].filter(Boolean).join(' '),
        onclick: onClick, title, ...rest,
    }, iconName ? icon(iconName) : null, label);
}

/** Puts a button into a busy state while the promise runs; returns the promise's value. */
export async function busy(btn, promise, busyLabel) {
    const original = Array.from(btn.childNodes);
    btn.disabled = true;
    btn.setAttribute('aria-busy', 'true');
    btn.replaceChildren(h('span', { class: 'spinner', 'aria-hidden': 'true' }), busyLabel || original.map(n => n.textContent).join(''));
    try {
        return await promise;
    } finally {
        btn.disabled = false;
        btn.removeAttribute('aria-busy');
        btn.replaceChildren(...original);
    }
}

let toastHost;
/** A short message at the bottom right, also read out by screen readers. */
export function toast(message, kind = 'ok') {
    if (!toastHost) {
        toastHost = h('div', { class: 'toasts', role: 'status', 'aria-live': 'polite' });
        document.body.append(toastHost);
    }
    const el = h('div', { class: `toast ${kind}` }, icon(kind === 'error' ? 'alert' : 'checkCircle'), h('span', {}, message));
    toastHost.append(el);
    setTimeout(() => el.remove(), kind === 'error' ? 7000 : 3200);
}

/** What a user sees on an admins' page typed into the address bar: what it is for, without asking the API. */
export function adminOnlyNotice(iconName, title, ...text) {
    return h('div', { class: 'page' }, h('div', { class: 'card empty' }, h('div', { class: 'empty-icon' }, icon(iconName, 26)),
        h('h2', {}, title), h('p', {}, ...text)));
}

/** An alert box with a title and the error's message. */
export function alertBox(err, title) {
    const { headline, detail } = describeError(err);
    return h('div', { class: 'alert', role: 'alert' }, icon('alert'),
        h('div', {}, h('strong', {}, title || headline), title ? h('span', {}, headline + (detail ? ' ' + detail : '')) : (detail ? h('span', {}, detail) : null)));
}

/** Turns an ApiError (or any error) into words a user can act on. */
export function describeError(err) {
    if (err && err.kind === 'network') {
        return { headline: 'Switchboard cannot be reached.', detail: 'Check that the server is running and your network connection, then try again.' };
    }
    if (err && err.status === 401) {
        return { headline: 'Your session has ended.', detail: 'Sign in again to continue.' };
    }
    if (err && err.status === 403 && !err.message) {
        return { headline: 'You are not allowed to do this.', detail: 'Ask an admin for access.' };
    }
    const message = (err && err.message) || 'Something went wrong.';
    return { headline: message.endsWith('.') ? message : message + '.', detail: '' };
}

/**
 * A modal <dialog> (focus trapped, Escape closes). content(dialog) returns the body; resolves with what close() got.
 * Returns {dialog, closed} where closed is a promise.
 */
export function openModal({ title, subtitle, size = '', build, labelledBy }) {
    const titleId = labelledBy || `dlg-${Math.random().toString(36).slice(2, 8)}`;
    const dialog = h('dialog', { class: `modal ${size}`, 'aria-labelledby': titleId });
    let resolve;
    const closed = new Promise(r => { resolve = r; });
    dialog.addEventListener('close', () => {
        resolve(dialog.returnValue === '' ? undefined : dialog.result);
        dialog.remove();
    });
    const head = h('div', { class: 'modal-head' },
        h('div', {}, h('h2', { id: titleId }, title), subtitle ? h('p', {}, subtitle) : null),
        h('button', { type: 'button', class: 'btn btn-ghost btn-icon', 'aria-label': 'Close', onclick: () => dialog.close() }, icon('x')));
    dialog.finish = (result) => { dialog.result = result; dialog.close('done'); };
    dialog.append(...[].concat(build(dialog, head)));
    document.body.append(dialog);
    dialog.showModal();
    return { dialog, closed };
}

/** Asks for confirmation; resolves true when confirmed. */
export function confirmDialog({ title, message, confirmLabel = 'Delete', danger = true }) {
    const { closed } = openModal({
        title, size: 'small', build: (dialog, head) => {
            const ok = button(confirmLabel, { kind: danger ? 'danger' : 'primary', onClick: () => dialog.finish(true) });
            const cancel = button('Cancel', { onClick: () => dialog.close() });
            queueMicrotask(() => cancel.focus());
            return [head, h('div', { class: 'modal-body' }, h('p', { style: 'margin-bottom:16px' }, message)),
                h('div', { class: 'modal-foot' }, cancel, ok)];
        },
    });
    return closed.then(v => v === true);
}

/**
 * A key-value editor. Existing values that the server masked are shown as they are and sent back unchanged
 * unless the user types a new value (the API keeps a masked value echoed back).
 */
export function keyValueEditor({ id, entries = {}, itemLabel = 'entry', keyLabel, valueLabel, keyPlaceholder, valuePlaceholder, addLabel, secret = true }) {
    const root = h('div', { class: 'kv', id });
    const rows = h('div', { class: 'kv' });
    const empty = h('div', { class: 'kv-empty' }, 'None yet.');
    let counter = 0;
    function addRow(key = '', value = '', masked = false) {
        const n = ++counter;
        const k = h('input', { type: 'text', class: 'mono', value: key, 'aria-label': `${keyLabel} ${n}`, placeholder: keyPlaceholder, autocomplete: 'off', spellcheck: 'false' });
        const v = h('input', {
            type: 'text', class: 'mono' + (masked ? ' masked' : ''), value, 'aria-label': `${valueLabel} ${n}`,
            placeholder: valuePlaceholder, autocomplete: 'off', spellcheck: 'false',
            title: masked ? 'Stored secret, hidden. Leave it as it is to keep it, or type a new value.' : null,
        });
        if (masked) {
            v.addEventListener('focus', () => { if (v.classList.contains('masked')) v.select(); });
            v.addEventListener('input', () => v.classList.remove('masked'));
        }
        const row = h('div', { class: 'kv-row' }, k, v,
            h('button', { type: 'button', class: 'btn btn-ghost btn-icon', 'aria-label': `Remove ${itemLabel} ${n}`,
                onclick: () => { row.remove(); sync(); } }, icon('trash')));
        rows.append(row);
        sync();
        return k;
    }
    function sync() { empty.hidden = rows.children.length > 0; }
    for (const [key, value] of Object.entries(entries || {})) addRow(key, value, secret && /^•+/.test(value));
    sync();
    root.append(rows, empty, button(addLabel, { kind: 'ghost', size: 'sm', iconName: 'plus', class: 'btn btn-ghost btn-sm kv-add', onClick: () => addRow().focus() }));
    root.value = () => {
        const out = {};
        for (const row of rows.children) {
            const [k, v] = row.querySelectorAll('input');
            if (k.value.trim() === '' && v.value === '') continue;
            out[k.value.trim()] = v.value;
        }
        return out;
    };
    return root;
}

export function formatDate(iso) {
    if (!iso) return '—';
    const d = new Date(iso);
    if (Number.isNaN(d.getTime())) return iso;
    return d.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

export function relativeTime(iso) {
    if (!iso) return 'never';
    const seconds = (Date.now() - new Date(iso).getTime()) / 1000;
    if (seconds < 60) return 'just now';
    if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
    if (seconds < 86400) return `${Math.round(seconds / 3600)} h ago`;
    return formatDate(iso);
}

export function plural(n, one, many) {
    return `${n} ${n === 1 ? one : (many || one + 's')}`;
}
