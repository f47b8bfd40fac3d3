// Sign in with a local user; the token lives in sessionStorage (gone when the tab closes).
import { api } from '../api.js';
import { alertBox, h, logo } from '../ui.js';

export async function render(root, ctx) {
    const username = h('input', { type: 'text', id: 'signin-username', name: 'username', autocomplete: 'username', required: true, autocapitalize: 'off', spellcheck: 'false' });
    const password = h('input', { type: 'password', id: 'signin-password', name: 'password', autocomplete: 'current-password', required: true });
    const errors = h('div', { 'aria-live': 'assertive' });
    if (ctx.signOutMessage) {
        errors.append(h('div', { class: 'alert info', role: 'status' }, ctx.signOutMessage));
        ctx.signOutMessage = null;
    }
    const submit = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Sign in');
    const form = h('form', { novalidate: true, onsubmit: async (e) => {
        e.preventDefault();
        errors.replaceChildren();
        if (!username.value.trim() || !password.value) {
            errors.append(alertBox({ message: 'Enter your username and password' }));
            (username.value.trim() ? password : username).focus();
            return;
        }
        submit.disabled = true;
        submit.replaceChildren(h('span', { class: 'spinner', 'aria-hidden': 'true' }), 'Signing in…');
        try {
            const token = await api.login(username.value.trim(), password.value);
            await ctx.signedIn(token.access_token);
        } catch (err) {
            const wrong = err.code === 'invalid_credentials';
            errors.append(alertBox(wrong ? { message: 'The username or password is not right. Check both and try again' } : err,
                wrong ? 'Sign-in failed' : 'Could not sign in'));
            password.value = '';
            password.focus();
            submit.disabled = false;
            submit.replaceChildren('Sign in');
        }
    } },
        errors,
        h('div', { class: 'field' }, h('label', { for: 'signin-username' }, 'Username'), username),
        h('div', { class: 'field' }, h('label', { for: 'signin-password' }, 'Password'), password),
        submit);
    root.append(h('div', { class: 'signin' },
        h('main', { class: 'card signin-card' },
            h('div', { class: 'brand' }, logo(34), h('div', {}, 'Switchboard', h('small', {}, 'Agent ↔ tool gateway'))),
            h('h1', {}, 'Sign in'),
            h('p', { class: 'lead' }, 'Manage the MCP servers, assistants and API keys of your workspace.'),
            form,
            h('p', { class: 'signin-foot' }, 'First start? The admin password is printed in the server log once.'))));
    username.focus();
}
