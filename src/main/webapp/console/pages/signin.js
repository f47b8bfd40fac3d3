// Sign in with a local user, or with a token Switchboard accepts (an API key, or a token of the configured issuer);
// the token lives in sessionStorage (gone when the tab closes).
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
    // a token instead of a password: an API key, or a token from the identity provider Switchboard trusts
    const token = h('input', { type: 'password', id: 'signin-token', name: 'token', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'signin-token-hint' });
    const tokenErrors = h('div', { 'aria-live': 'assertive' });
    const tokenSubmit = h('button', { type: 'submit', class: 'btn', id: 'signin-token-submit' }, 'Sign in with token');
    const tokenForm = h('form', { novalidate: true, onsubmit: async (e) => {
        e.preventDefault();
        tokenErrors.replaceChildren();
        const value = token.value.trim().replace(/^Bearer\s+/i, '');
        if (!value) {
            tokenErrors.append(alertBox({ message: 'Paste a token or an API key first' }));
            token.focus();
            return;
        }
        tokenSubmit.disabled = true;
        try {
            await ctx.signedIn(value);
        } catch (err) {
            // Liberty refuses an unknown, expired or revoked token with an empty 401
            tokenErrors.append(alertBox(err.status === 401
                ? { message: 'Switchboard does not accept this token: it may have expired or been revoked, or come from an issuer Switchboard does not trust. Create a new API key, or sign in with your password' }
                : err, 'Sign-in failed'));
            token.select();
            token.focus();
            tokenSubmit.disabled = false;
        }
    } },
        tokenErrors,
        h('div', { class: 'field' }, h('label', { for: 'signin-token' }, 'Token or API key'), token,
            h('div', { class: 'hint', id: 'signin-token-hint' }, 'What a program would send as \u201cAuthorization: Bearer \u2026\u201d.')),
        tokenSubmit);
    root.append(h('div', { class: 'signin' },
        h('main', { class: 'card signin-card' },
            h('div', { class: 'brand' }, logo(34), h('div', {}, 'Switchboard', h('small', {}, 'Agent ↔ tool gateway'))),
            h('h1', {}, 'Sign in'),
            h('p', { class: 'lead' }, 'Manage the MCP servers, assistants and API keys of your workspace.'),
            form,
            h('details', { class: 'signin-token', id: 'signin-token-section' }, h('summary', {}, 'Sign in with a token or API key'), tokenForm),
            h('p', { class: 'signin-foot' }, 'First start? The admin password is printed in the server log once.'))));
    username.focus();
}
