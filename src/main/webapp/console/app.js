// The console's shell: session, hash router, sidebar. Pages live in ./pages and export render(main, ctx).
import { api, session, setUnauthorizedHandler } from './api.js';
import { h, icon, logo, toast } from './ui.js';
import * as signin from './pages/signin.js';
import * as servers from './pages/servers.js';
import * as tools from './pages/tools.js';
import * as assistants from './pages/assistants.js';
import * as apiKeys from './pages/api-keys.js';
import * as overview from './pages/overview.js';
import * as chat from './pages/chat.js';
import * as gateway from './pages/gateway.js';
import * as audit from './pages/audit.js';
import * as query from './pages/query.js';
import * as tenants from './pages/tenants.js';
import * as permissions from './pages/permissions.js';
import * as knowledge from './pages/knowledge.js';

const app = document.getElementById('app');

const HOME = '#/overview';

const ROUTES = [
    { pattern: /^\/overview$/, page: overview, nav: 'overview', title: 'Overview' },
    { pattern: /^\/chat(?:\/(\d+))?$/, page: chat, nav: 'chat', title: 'Chat' },
    { pattern: /^\/gateway$/, page: gateway, nav: 'gateway', title: 'Gateway' },
    { pattern: /^\/query$/, page: query, nav: 'query', title: 'Query' },
    { pattern: /^\/audit$/, page: audit, nav: 'audit', title: 'Audit trail' },
    { pattern: /^\/tenants$/, page: tenants, nav: 'tenants', title: 'Tenants' },
    { pattern: /^\/permissions$/, page: permissions, nav: 'permissions', title: 'Table permissions' },
    { pattern: /^\/servers$/, page: servers, nav: 'servers', title: 'MCP servers' },
    { pattern: /^\/servers\/(\d+)\/tools$/, page: tools, nav: 'servers', title: 'Tools' },
    { pattern: /^\/assistants$/, page: assistants, nav: 'assistants', title: 'Assistants' },
    { pattern: /^\/knowledge$/, page: knowledge, nav: 'knowledge', title: 'Knowledge base' },
    { pattern: /^\/api-keys$/, page: apiKeys, nav: 'api-keys', title: 'API keys' },
];

const NAV_TOP = [
    { id: 'overview', href: '#/overview', label: 'Overview', icon: 'activity' },
    { id: 'chat', href: '#/chat', label: 'Chat', icon: 'chat' },
    { id: 'query', href: '#/query', label: 'Query', icon: 'database' },
];
const NAV_ADMIN = [
    { id: 'gateway', href: '#/gateway', label: 'Gateway', icon: 'gateway' },
    { id: 'audit', href: '#/audit', label: 'Audit', icon: 'shield' },
    { id: 'tenants', href: '#/tenants', label: 'Tenants', icon: 'building' },
    { id: 'permissions', href: '#/permissions', label: 'Table permissions', icon: 'database' },
];
const NAV = [
    { id: 'servers', href: '#/servers', label: 'MCP servers', icon: 'server' },
    { id: 'assistants', href: '#/assistants', label: 'Assistants', icon: 'bot' },
    { id: 'knowledge', href: '#/knowledge', label: 'Knowledge', icon: 'file' },
    { id: 'api-keys', href: '#/api-keys', label: 'API keys', icon: 'key' },
];

const ctx = {
    me: null,
    get isAdmin() { return !!ctx.me && ctx.me.roles.includes('admin'); },
    navigate(hash) {
        if (location.hash === hash) route();
        else location.hash = hash;
    },
    async signedIn(token) {
        session.token = token;
        try {
            ctx.me = await api.get('/auth/me');
        } catch (e) {
            session.token = null; // a token Switchboard refused is not kept
            throw e;
        }
        const wanted = sessionStorage.getItem('switchboard.after-signin');
        sessionStorage.removeItem('switchboard.after-signin');
        ctx.navigate(wanted && wanted !== '#/signin' ? wanted : HOME);
    },
    signOut(message) {
        session.token = null;
        ctx.me = null;
        ctx.signOutMessage = message || null;
        ctx.navigate('#/signin');
    },
};

setUnauthorizedHandler(() => {
    if (ctx.me) ctx.signOut('Your session has ended. Sign in again to continue.');
});

let shell = null;
let renderCount = 0;

function buildShell() {
    const link = item => h('a', { href: item.href, dataset: { nav: item.id } }, icon(item.icon), item.label);
    const navList = h('nav', { class: 'nav', 'aria-label': 'Main' },
        NAV_TOP.map(link),
        h('div', { class: 'nav-label' }, 'Manage'),
        NAV.map(link),
        ctx.isAdmin ? [h('div', { class: 'nav-label' }, 'Admin'), NAV_ADMIN.map(link)] : null,
        h('div', { class: 'nav-label' }, 'Developers'),
        h('a', { href: 'openapi/ui', target: '_blank', rel: 'noopener' }, icon('book'), 'API reference'));
    const name = ctx.me.subject;
    const role = ctx.isAdmin ? 'Admin' : 'User';
    const main = h('main', { class: 'main', id: 'main', tabindex: '-1' });
    const sidebar = h('aside', { class: 'sidebar' },
        h('div', { class: 'brand' }, logo(30), h('div', {}, 'Switchboard', h('small', {}, 'Agent ↔ tool gateway'))),
        navList,
        h('div', { class: 'sidebar-foot' },
            h('div', { class: 'me', 'aria-label': 'Signed in user' },
                h('div', { class: 'avatar', 'aria-hidden': 'true' }, name.slice(0, 1)),
                h('div', { style: 'min-width:0' },
                    h('div', { class: 'me-name', id: 'me-name', title: name }, name),
                    h('div', { class: 'me-meta', id: 'me-meta' }, `${role} · ${ctx.me.tenant}`))),
            h('button', { type: 'button', class: 'btn btn-signout', onclick: () => { ctx.signOut(); toast('Signed out'); } },
                icon('logout'), 'Sign out')));
    const root = h('div', { class: 'shell' },
        h('a', { class: 'skip-link', href: '#main', onclick: (e) => { e.preventDefault(); main.focus(); } }, 'Skip to content'),
        sidebar, main);
    return { root, main, navList };
}

async function route() {
    const hash = location.hash.replace(/^#/, '') || HOME.slice(1);
    const thisRender = ++renderCount;

    if (!session.token) {
        shell = null;
        if (hash !== '/signin') sessionStorage.setItem('switchboard.after-signin', '#' + hash);
        if (location.hash !== '#/signin') { location.replace('#/signin'); return; }
        document.title = 'Sign in · Switchboard';
        app.replaceChildren();
        await signin.render(app, ctx);
        return;
    }
    if (!ctx.me) {
        try {
            ctx.me = await api.get('/auth/me');
        } catch (e) {
            if (e.status === 401 || e.status === 403) { ctx.signOut('Your session has ended. Sign in again to continue.'); return; }
            app.replaceChildren(h('div', { class: 'signin' }, h('div', { class: 'card signin-card' },
                h('h1', {}, 'Switchboard is not answering'), h('p', { class: 'lead' }, e.message + '. Reload the page to try again.'))));
            return;
        }
        if (thisRender !== renderCount) return;
    }
    if (hash === '/signin' || hash === '/') { location.replace(HOME); return; }

    const match = ROUTES.map(r => ({ r, m: hash.match(r.pattern) })).find(x => x.m);
    if (!shell) {
        shell = buildShell();
        app.replaceChildren(shell.root);
    }
    for (const a of shell.navList.querySelectorAll('a[data-nav]')) {
        if (match && a.dataset.nav === match.r.nav) a.setAttribute('aria-current', 'page');
        else a.removeAttribute('aria-current');
    }
    const main = shell.main;
    main.replaceChildren();
    if (!match) {
        document.title = 'Not found · Switchboard';
        main.append(h('div', { class: 'page' }, h('div', { class: 'empty' }, h('h2', {}, 'This page does not exist'),
            h('p', {}, h('a', { href: HOME }, 'Go to the overview')))));
        return;
    }
    document.title = `${match.r.title} · Switchboard`;
    // a new page: focus starts at its top, as after a full page load (screen readers announce it)
    if (document.activeElement && shell.root.contains(document.activeElement)) main.focus({ preventScroll: true });
    window.scrollTo(0, 0);
    await match.r.page.render(main, ctx, ...match.m.slice(1));
}

window.addEventListener('hashchange', () => { route(); });
route();
