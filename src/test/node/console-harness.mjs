// What the console's browser walkthroughs share: arguments, Debian's Chromium through playwright-core, one
// screenshot per step at a 1280x800 laptop screen unless a step changes it, and failing on any browser console error
// or page error (except the "Failed to load resource" line Chromium logs for an HTTP error a step provokes on
// purpose, declared with expectHttpError), on any request that leaves the Switchboard under test (the console must
// work offline: no CDN, no web font, no analytics), on any visible control without an accessible name, on a page
// that scrolls sideways at the screen size of the step, and on the words "null" or "undefined" in a page's text (a
// value the page forgot to handle, written out by the DOM).
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The laptop screen the walkthroughs run at; steps that check narrower screens go back to it. */
export const LAPTOP = { width: 1280, height: 800 };

export function parseArgs(required) {
    const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, a, i, all) => {
        if (a.startsWith('--')) pairs.push([a.slice(2), all[i + 1]]);
        return pairs;
    }, []));
    for (const name of required) {
        if (!args[name]) { console.error(`missing --${name}`); process.exit(2); }
    }
    return args;
}

/**
 * Starts Chromium. out: the screenshot folder; prefix names this run's pictures ({prefix}NN-step.png) so two
 * walkthroughs can share the folder: only this walkthrough's old pictures are removed.
 */
export async function startBrowser({ baseUrl, nodeModules, out, prefix = '' }) {
    const BASE = baseUrl.replace(/\/$/, '');
    const OUT = path.resolve(out);
    const require = createRequire(path.join(path.resolve(nodeModules), 'noop.js'));
    const { chromium } = require('playwright-core');

    fs.mkdirSync(OUT, { recursive: true });
    const mine = new RegExp(`^${prefix}\\d\\d-.*\\.png$`);
    for (const f of fs.readdirSync(OUT)) if (mine.test(f)) fs.rmSync(path.join(OUT, f));

    const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-chromium-'));
    const context = await chromium.launchPersistentContext(userDataDir, {
        executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
        headless: true,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
            '--disable-component-update', '--disable-sync'],
        viewport: LAPTOP,
        deviceScaleFactor: 1,
        locale: 'en-US',
        timezoneId: 'UTC',
    });
    context.setDefaultTimeout(30_000);
    const page = context.pages()[0] || await context.newPage();

    const problems = [];
    const allowances = [];
    page.on('console', msg => {
        if (msg.type() !== 'error') return;
        const text = msg.text();
        const allowed = allowances.findIndex(re => re.test(text));
        if (allowed >= 0) { allowances.splice(allowed, 1); return; }
        problems.push(`console error: ${text} (${msg.location().url || 'no url'})`);
    });
    page.on('pageerror', err => problems.push(`page error: ${err.message}`));
    // offline: everything the console loads or calls is served by Switchboard itself
    context.on('request', req => {
        const url = req.url();
        if (!url.startsWith(BASE + '/') && !/^(data|blob):/.test(url)) problems.push(`request outside Switchboard: ${req.method()} ${url}`);
    });
    // every status a tool-call block shows, in order, by tool call id (seed 004's pending/invoking/done/error/cancelled)
    await context.addInitScript(recordToolCallStatuses);
    page.on('requestfailed', req => {
        if (!req.url().startsWith(BASE)) return;
        // a page that is left aborts its own open requests (a chat stream stopped on purpose, a poll in flight)
        if (/ERR_ABORTED/.test(req.failure()?.errorText || '')) return;
        problems.push(`request failed: ${req.method()} ${req.url()} ${req.failure()?.errorText}`);
    });

    let stepNo = 0;
    const shots = [];
    return {
        BASE, page, shots,
        /** A step provokes an HTTP error on purpose: Chromium logs one "Failed to load resource ... status of N" line for it. */
        expectHttpError(status) {
            allowances.push(new RegExp(`status of ${status}\\b`));
        },
        async step(name, fn) {
            const n = prefix + String(++stepNo).padStart(2, '0');
            const started = Date.now();
            process.stdout.write(`step ${n} ${name} … `);
            try {
                await fn();
                for (const control of await unnamedControls(page)) problems.push(`a control without an accessible name: ${control}`);
                for (const text of await nullTexts(page)) problems.push(`the page shows a missing value as text: ${text}`);
                const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
                if (sideways > 0) problems.push(`the page scrolls sideways by ${sideways} px at ${page.viewportSize().width} px wide`);
                await page.waitForTimeout(150); // let a toast or focus ring settle for the picture
                const file = path.join(OUT, `${n}-${name}.png`);
                await page.screenshot({ path: file });
                shots.push(path.basename(file));
                if (problems.length) throw new Error(problems.join('\n'));
                console.log(`ok (${Date.now() - started} ms)`);
            } catch (err) {
                console.log('FAILED');
                try { await page.screenshot({ path: path.join(OUT, `${n}-${name}-FAILED.png`), fullPage: true }); } catch { /* page gone */ }
                throw err;
            }
        },
        /** The statuses the tool-call block of this call went through, in order (repeats dropped). */
        async toolCallStatuses(toolCallId) {
            return page.evaluate(id => (window.__toolCallStatuses || {})[id] || [], toolCallId);
        },
        /** The REST API with the browser's own session token (what the console stored in sessionStorage); body: sent as JSON. */
        async rest(method, pathName, token, body) {
            const bearer = token || await page.evaluate(() => sessionStorage.getItem('switchboard.token'));
            const headers = { Authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) };
            const response = await fetch(BASE + pathName, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
            const text = await response.text();
            return { status: response.status, json: text ? JSON.parse(text) : null };
        },
        async close() {
            await context.close();
            fs.rmSync(userDataDir, { recursive: true, force: true });
        },
    };
}

export function check(condition, message) {
    if (!condition) throw new Error(message);
}

/**
 * Visible form controls, buttons and links that a screen reader could not name: no aria-label, no aria-labelledby
 * with text, no <label>, no text of their own, no title. Returns a short description of each.
 */
function unnamedControls(page) {
    return page.evaluate(() => {
        const text = el => (el ? el.textContent || '' : '').trim();
        const visible = el => {
            const box = el.getBoundingClientRect();
            return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
        };
        const named = el => {
            if ((el.getAttribute('aria-label') || '').trim()) return true;
            const by = el.getAttribute('aria-labelledby');
            if (by && by.split(/\s+/).some(id => text(document.getElementById(id)))) return true;
            if (el.labels && [...el.labels].some(label => text(label))) return true;
            if (/^(BUTTON|A|SUMMARY)$/.test(el.tagName) && text(el)) return true;
            return !!(el.getAttribute('title') || '').trim();
        };
        return [...document.querySelectorAll('input:not([type=hidden]), select, textarea, button, a[href], summary, [role=switch]')]
            .filter(el => visible(el) && !named(el))
            .map(el => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${el.className ? '.' + String(el.className).split(' ').join('.') : ''}`);
    });
}

/**
 * Text on the page that reads "null" or "undefined" as a word: what the DOM writes for a value a page forgot to handle
 * (replaceChildren(null), `${undefined}`). Code the page shows as it is (pre, code, textarea: JSON with its nulls) is
 * not looked at; text a screen reader reads (sr-only) is. Returns each with the element it is in.
 */
function nullTexts(page) {
    return page.evaluate(() => {
        const found = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const match = /\b(null|undefined)\b/.exec(node.nodeValue);
            const el = node.parentElement;
            if (!match || !el || el.closest('pre, code, textarea, script, style, template')) continue;
            if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
            const where = `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${el.className ? '.' + String(el.className).split(' ').join('.') : ''}`;
            found.push(`"${node.nodeValue.trim().slice(0, 80)}" in ${where}`);
        }
        return found;
    });
}

/** Runs in the page before the console: keeps, per tool call id, the statuses its block showed, in order. */
function recordToolCallStatuses() {
    const seen = window.__toolCallStatuses = {};
    const note = (block, status) => {
        const id = block.dataset.toolCallId;
        if (!id || !status) return;
        const list = seen[id] || (seen[id] = []);
        if (list[list.length - 1] !== status) list.push(status);
    };
    new MutationObserver(records => {
        const touched = new Set();
        for (const r of records) {
            if (r.type === 'attributes' && r.target.classList.contains('tool-block')) {
                note(r.target, r.oldValue); // a status that came and went between two callbacks
                touched.add(r.target);
            }
            for (const node of r.addedNodes || []) {
                if (node.nodeType !== 1) continue;
                if (node.classList.contains('tool-block')) touched.add(node);
                node.querySelectorAll('.tool-block').forEach(b => touched.add(b));
            }
        }
        touched.forEach(block => note(block, block.dataset.status));
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'], attributeOldValue: true });
}
