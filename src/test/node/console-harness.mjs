// What the console's browser walkthroughs share: arguments, Debian's Chromium through playwright-core, one
// screenshot per step, and failing on any browser console error or page error, except the "Failed to load
// resource" line Chromium logs for an HTTP error a step provokes on purpose (declared with expectHttpError).
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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
        viewport: { width: 1366, height: 800 },
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
        /** The REST API with the browser's own session token (what the console stored in sessionStorage). */
        async rest(method, pathName, token) {
            const bearer = token || await page.evaluate(() => sessionStorage.getItem('switchboard.token'));
            const response = await fetch(BASE + pathName, { method, headers: { Authorization: `Bearer ${bearer}` } });
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
