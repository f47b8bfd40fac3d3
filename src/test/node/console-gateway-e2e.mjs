#!/usr/bin/env node
// The gateway page of a crowded tenant walked through in Debian's Chromium (driven by ConsoleGatewayBrowserIT, whose
// CrowdedGateway shares one server-everything --backends times, over 70 tools, and opened 30 sessions with three
// client names and protocol versions): the page stays short at 1280x800 with every detail shut, a search finds a
// tool, its details open and shut, the backend, annotation and status filters narrow the list, Load more reads every
// tool once, the sessions are searched by client, filtered by state and protocol version, and a session's backend
// sessions open; all of it answered by the server.
//
//   node console-gateway-e2e.mjs --base-url http://localhost:18480 --password ... --admin crowd-abc123-admin
//        --backends crowd-abc123-1,crowd-abc123-2,... --max-height 2500
//        --node-modules target/node/node_modules --out target/console-screenshots
//
// Screenshots are gateway-NN-step.png in --out. The last line printed is RESULT {json} for the IT to check.
import { check, parseArgs, startBrowser } from './console-harness.mjs';

const args = parseArgs(['base-url', 'admin', 'backends', 'max-height', 'node-modules', 'out']);
const browser = await startBrowser({ baseUrl: args['base-url'], nodeModules: args['node-modules'], out: args.out, prefix: 'gateway-' });
const { BASE, page, shots, step } = browser;
const backends = args.backends.split(',');
const maxHeight = Number(args['max-height']);
const result = { screenshots: shots };
/** Tools the page lists at a time. */
const TOOL_PAGE = 15;

const rows = page.locator('#gateway-tool-table tr.tool-row');
const publicNames = () => rows.evaluateAll(trs => trs.map(tr => tr.dataset.publicName));
/** Waits for the tool list to settle after a search or filter: no request in flight, and a total. */
const toolsSettled = async () => {
    await page.waitForTimeout(350); // past the search box's pause before it asks
    await page.locator('#gateway-tool-table[data-total]:not([aria-busy])').waitFor();
    return Number(await page.getAttribute('#gateway-tool-table', 'data-total'));
};
const sessionRows = page.locator('#gateway-session-table tbody tr[data-session-id]');
const sessionsSettled = async () => {
    await page.waitForTimeout(400);
    await page.locator('#gateway-session-table:not([aria-busy])').waitFor();
};

try {
    await step('crowded-gateway', async () => {
        await page.goto(BASE + '/');
        await page.locator('#signin-username').waitFor();
        await page.fill('#signin-username', args.admin);
        await page.fill('#signin-password', `password-${args.admin}`);
        await page.keyboard.press('Enter');
        await page.locator('#health-overall').waitFor();
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Gateway', exact: true }).click();
        const total = await toolsSettled();
        await sessionRows.first().waitFor();
        await page.locator('.backend-card').first().waitFor();
        check(total >= 70, `over 70 tools behind the gateway: ${total}`);
        result.totalTools = total;
        check(await rows.count() === TOOL_PAGE, `one page of ${TOOL_PAGE} tools is shown: ${await rows.count()}`);
        check((await page.textContent('#gateway-tool-count')) === `${TOOL_PAGE} of ${total} tools`, `the count says how many: ${await page.textContent('#gateway-tool-count')}`);
        check((await page.textContent('#gateway-tools-facts')).startsWith(`${total} tools from ${backends.length} shared backends`),
            `the facts line: ${await page.textContent('#gateway-tools-facts')}`);
        check(await page.locator('tr.tool-details:not([hidden])').count() === 0, 'every tool\u2019s details are shut');
        check(await page.locator('tr.session-backends:not([hidden])').count() === 0, 'every session\u2019s backend sessions are shut');
        check(await page.locator('.backend-card').count() === 3 && await page.isVisible('#backends-show-all'),
            `three of the ${backends.length} backend cards, and a way to the rest`);
        check((await page.textContent('#backends-updated')).startsWith(`${backends.length} shared`), 'the summary counts every backend');
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        result.pageHeight = height;
        check(height < maxHeight, `the page is ${height} px tall at 1280x800 (at most ${maxHeight})`);
        const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        check(wide <= 0, `nothing reaches past 1280 px: ${wide}`);
    });

    const target = `${backends[0]}__get-sum`;
    await step('search-finds-a-tool', async () => {
        await page.fill('#gateway-tool-search', 'ECHO');
        const echoes = await toolsSettled();
        const names = await publicNames();
        check(echoes >= backends.length && echoes < result.totalTools && names.length === Math.min(echoes, TOOL_PAGE), `the search narrows the list: ${names}`);
        check(backends.every(b => names.includes(`${b}__echo`)), `every backend's echo is found: ${names}`);
        await page.fill('#gateway-tool-search', target);
        check(await toolsSettled() === 1, 'one tool has that public name');
        check(JSON.stringify(await publicNames()) === JSON.stringify([target]), `the tool is found: ${await publicNames()}`);
        check((await page.textContent('#gateway-tool-count')) === '1 of 1 tool', 'the count follows the search');
    });

    await step('details-open-on-click', async () => {
        const row = page.locator(`#gateway-tool-table tr.tool-row[data-public-name="${target}"]`);
        const toggle = row.getByRole('button', { name: `Details of ${target}` });
        await toggle.click();
        const details = page.locator('tr.tool-details:not([hidden])');
        await details.waitFor();
        check(await toggle.getAttribute('aria-expanded') === 'true', 'the button says the details are open');
        const text = await details.textContent();
        check(text.includes(`get-sum on ${backends[0]}`) && text.includes('Read-only: yes') && text.includes('Offered'), `the details: ${text}`);
        check(await details.locator('.param.required').count() === 2, 'both arguments are listed as required');
        await details.locator('.tool-schema > summary').click();
        check((await details.locator('.tool-schema pre').textContent()).includes('"properties"'), 'the input schema opens');
        result.detailsHeight = await page.evaluate(() => document.documentElement.scrollHeight);
    });

    await step('details-shut-again', async () => {
        await page.locator(`#gateway-tool-table tr.tool-row[data-public-name="${target}"]`).getByRole('button', { name: `Details of ${target}` }).click();
        check(await page.locator('tr.tool-details:not([hidden])').count() === 0, 'the details are shut');
    });

    await step('filters-narrow', async () => {
        await page.fill('#gateway-tool-search', '');
        await toolsSettled();
        await page.selectOption('#gateway-tool-server', backends[1]);
        const ofOne = await toolsSettled();
        const names = await publicNames();
        check(ofOne >= 12 && ofOne < result.totalTools && names.every(n => n.startsWith(`${backends[1]}__`)), `one backend's tools: ${names}`);
        check((await page.locator('#gateway-tool-server option:checked').textContent()) === `${backends[1]} (${ofOne})`, 'the backend filter counts its tools');
        await page.selectOption('#gateway-tool-annotation', 'readOnly');
        const readOnly = await toolsSettled();
        check(readOnly > 0 && readOnly < ofOne && (await publicNames()).includes(`${backends[1]}__echo`),
            `read-only tools of that backend: ${await publicNames()}`);
        await page.selectOption('#gateway-tool-status', 'hidden');
        check(await toolsSettled() === 0, 'the tenant policy hides nothing');
        check((await page.textContent('#gateway-tool-table tbody')).includes('No tool matches'), 'an empty answer says why');
    });

    await step('load-more-reads-every-tool-once', async () => {
        for (const id of ['#gateway-tool-server', '#gateway-tool-annotation', '#gateway-tool-status']) await page.selectOption(id, '');
        const total = await toolsSettled();
        while (await page.isVisible('#gateway-tool-more')) {
            const before = await rows.count();
            await page.click('#gateway-tool-more');
            await page.waitForFunction((n) => document.querySelectorAll('#gateway-tool-table tr.tool-row').length > n, before);
        }
        const names = await publicNames();
        check(names.length === total && new Set(names).size === total, `every tool once: ${names.length} rows, ${new Set(names).size} names, ${total} in all`);
        check((await page.textContent('#gateway-tool-count')) === `${total} of ${total} tools`, 'the count says all are shown');
        await page.locator('#gateway-tools').scrollIntoViewIfNeeded();
    });

    await step('backend-cards', async () => {
        await page.click('#backends-show-all');
        check(await page.locator('.backend-card').count() === backends.length, 'every backend card on request');
        check(await page.getAttribute('#backends-show-all', 'aria-expanded') === 'true', 'the button says they are shown');
        await page.click('#backends-show-all');
        check(await page.locator('.backend-card').count() === 3, 'and fewer again');
        // a card's tool count shows that backend's tools in the list
        const card = page.locator(`.backend-card[data-backend-name="${backends[2]}"]`);
        if (!(await card.count())) await page.click('#backends-show-all');
        await card.locator('.status-meta button').waitFor();
        await card.locator('.status-meta button').click();
        await toolsSettled();
        check(await page.inputValue('#gateway-tool-server') === backends[2], 'the card chose its backend in the filter');
        check((await publicNames()).every(n => n.startsWith(`${backends[2]}__`)), 'the list shows that backend\u2019s tools');
        if (await page.getAttribute('#backends-show-all', 'aria-expanded') === 'true') await page.click('#backends-show-all');
    });

    await step('sessions-searched-and-filtered', async () => {
        await page.locator('#gateway-sessions').scrollIntoViewIfNeeded();
        await page.selectOption('#session-state', '');
        await sessionsSettled();
        const all = Number(await page.getAttribute('#session-count', 'data-total'));
        check(all >= 30 && await sessionRows.count() === 10, `a page of 10 of the tenant's ${all} sessions`);
        check((await page.textContent('#session-count')) === `1\u201310 of ${all} sessions`, `the count: ${await page.textContent('#session-count')}`);
        await page.fill('#session-search', 'beta');
        await sessionsSettled();
        const beta = await sessionRows.evaluateAll(trs => trs.map(tr => tr.textContent));
        check(beta.length > 0 && beta.length === Number(await page.getAttribute('#session-count', 'data-total')) && beta.every(t => t.includes('beta-ide')),
            `the search finds the sessions of one client: ${beta}`);
        await page.selectOption('#session-state', 'ended');
        await sessionsSettled();
        const ended = await sessionRows.evaluateAll(trs => trs.map(tr => tr.dataset.state + ' ' + tr.textContent));
        check(ended.length > 0 && ended.length < beta.length && ended.every(t => t.startsWith('ended') && t.includes('beta-ide')), `ended sessions of that client: ${ended}`);
        await page.fill('#session-protocol', '2025-03-26');
        await page.keyboard.press('Enter');
        await sessionsSettled();
        const old = await sessionRows.evaluateAll(trs => trs.map(tr => tr.textContent));
        check(old.length > 0 && old.length < ended.length && old.every(t => t.includes('/mcp · 2025-03-26') && t.includes('beta-ide')),
            `by protocol version too: ${old}`);
        result.sessionsOfOldProtocol = old.length;
    });

    await step('session-backends-open', async () => {
        await page.fill('#session-protocol', '');
        await page.keyboard.press('Enter');
        await page.fill('#session-search', '');
        await page.selectOption('#session-state', 'open');
        await sessionsSettled();
        const row = sessionRows.first();
        const toggle = row.locator('.backend-toggle');
        check((await toggle.textContent()).startsWith(`${backends.length} backends`), `the row counts its backend sessions: ${await toggle.textContent()}`);
        const list = page.locator(`#gateway-session-table tr[data-backends-of="${await row.getAttribute('data-session-id')}"]`);
        check(!(await list.isVisible()), 'the backend sessions are shut');
        await toggle.click();
        await list.locator('.backend-session').first().waitFor();
        check(await toggle.getAttribute('aria-expanded') === 'true', 'the button says they are shown');
        check(await list.locator('.backend-session').count() === backends.length, 'one chip per backend session');
        result.sessionHeight = await page.evaluate(() => document.documentElement.scrollHeight);
    });
} catch (err) {
    console.error(String(err && err.stack || err));
    console.log('RESULT ' + JSON.stringify({ ...result, failed: true }));
    await browser.close();
    process.exit(1);
}

await browser.close();
console.log('RESULT ' + JSON.stringify(result));
