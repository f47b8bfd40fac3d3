#!/usr/bin/env node
// The overview (with the recent-calls charts), chat playground, gateway (with the live session of an SDK client),
// audit, tenants and query pages walked through in Debian's Chromium (driven by ConsoleChatBrowserIT, which
// registers a shared stdio server-everything with echo auto-approved, an assistant using it, and scripts the LLM
// provider: the first message is answered with a call to its echo tool, then a text), and makes a user in tenant
// --tenant-id (no tenant row yet) so that deleting the tenant is refused while the user exists, who opened and
// ended --paging-sessions gateway sessions for the session list's tenant filter and pages; --user is a user of the
// default tenant (shared servers are managed by admins) and --tenant-admin an admin of another tenant (refused the
// default tenant's sessions and audit trail; its own tenant has two audit events, the second changed by the IT
// behind Switchboard's back); both have the password "password-" + their name).
//
//   node console-pages-e2e.mjs --base-url http://localhost:18381 --password ... --server-name gw-abc123
//        --assistant-name "Chat helper abc123" --key script-1-234 --approve-key script-2-567 --reject-key script-3-678 --slow-key script-4-890
//        --query-key script-5-123 --refuse-key script-6-456 --audited-calls 51 --tenant-id console-t-abc123 --tenant-user user-abc
//        --paging-tenants 21 --paging-sessions 21 --user user-abc --tenant-admin admin-abc
//        --node-modules target/node/node_modules --out target/console-screenshots
//
// Screenshots are pages-NN-step.png in --out; any browser console or page error fails the run. The last line
// printed is RESULT {json} for the IT to check through the REST API.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { check, LAPTOP, parseArgs, startBrowser } from './console-harness.mjs';

const args = parseArgs(['base-url', 'password', 'server-name', 'assistant-name', 'key', 'approve-key', 'reject-key', 'slow-key', 'query-key', 'refuse-key', 'audited-calls', 'long-subject', 'tenant-id', 'tenant-user', 'paging-tenants', 'paging-sessions', 'user', 'tenant-admin', 'node-modules', 'out']);
const browser = await startBrowser({ baseUrl: args['base-url'], nodeModules: args['node-modules'], out: args.out, prefix: 'pages-' });
const { BASE, page, shots, step, rest, expectHttpError, toolCallStatuses } = browser;
const serverName = args['server-name'];
const assistantName = args['assistant-name'];
const result = { screenshots: shots };

try {
    await step('overview-after-sign-in', async () => {
        await page.goto(BASE + '/');
        await page.locator('#signin-username').waitFor();
        await page.fill('#signin-username', 'admin');
        await page.fill('#signin-password', args.password);
        await page.keyboard.press('Enter');
        await page.locator('#health-overall[data-status="UP"]').waitFor();
        check(await page.title() === 'Overview · Switchboard', `the overview is the landing page: ${await page.title()}`);
        await page.locator('#chart-calls .chart-value').waitFor();
        for (const id of ['chart-connections', 'chart-calls', 'chart-failures']) {
            const value = await page.locator(`#${id} .chart-value`).getAttribute('data-value');
            check(/^\d+$/.test(value), `${id} shows a number: ${value}`);
            check(await page.locator(`#${id} svg.chart`).count() === 1, `${id} draws a chart`);
        }
        check(await page.locator('#health [data-check]').count() >= 1, 'the health checks are listed');
        await page.locator('#stat-servers .stat-value[data-value]').waitFor();
        check(Number(await page.locator('#stat-servers .stat-value').getAttribute('data-value')) >= 1, 'the shared server is counted');
        check(Number(await page.locator('#stat-assistants .stat-value').getAttribute('data-value')) >= 1, 'the assistant is counted');
    });

    await step('overview-call-timeline', async () => {
        // the IT made its audited gateway calls just before the browser started: the recent-calls charts count them
        // (the running interval is charted before the server's sampler closes it)
        const calls = page.locator('#chart-timeline-calls .chart-value');
        await calls.waitFor();
        const value = Number(await calls.getAttribute('data-value'));
        check(value >= Number(args['audited-calls']), `the gateway calls are charted: ${value}`);
        for (const id of ['chart-timeline-calls', 'chart-timeline-errors', 'chart-timeline-latency']) {
            check(await page.locator(`#${id} svg.chart`).count() === 1, `${id} draws a chart`);
            check(await page.locator(`#${id}[data-empty]`).count() === 0, `${id} is not in its empty state`);
        }
        check(await page.locator('#chart-timeline-calls svg.chart rect').count() >= 1, 'the calls are drawn as bars');
        check(await page.locator('#chart-timeline-latency svg.chart polyline').count() >= 1, 'the latency is drawn as a line');
        check(/^\d[\d,]* ms$/.test((await page.textContent('#chart-timeline-latency .chart-value')).trim()), 'the mean latency is in ms');
        check(/Gateway \d/.test(await page.textContent('#chart-timeline-calls .chart-sub')), 'the legend names the gateway calls');
        check(/^Last (hour|\d+ minutes)$/.test((await page.textContent('#timeline-heading')).trim()), 'the section names its window');
        result.chartedCalls = value;
    });

    await step('overview-call-timeline-empty', async () => {
        // the IT server is never quiet for long: the API's own answer with every figure set to zero shows the empty state
        const route = '**/api/metrics/timeline*';
        await page.route(route, async (request) => {
            const response = await request.fetch();
            const json = await response.json();
            const idle = { calls: 0, errors: 0, meanLatencyMs: null };
            json.points = json.points.map(p => ({ ...p, gateway: idle, chat: idle }));
            json.totals = { gateway: idle, chat: idle, all: idle };
            await request.fulfill({ response, json });
        });
        try {
            await page.reload();
            await page.locator('#chart-timeline-calls[data-empty]').waitFor();
            check((await page.textContent('#chart-timeline-calls .chart-empty')).startsWith('No tool calls in the last'), 'the empty state says so');
            check(await page.locator('#timeline-charts svg.chart').count() === 0, 'no empty chart is drawn');
            check((await page.textContent('#chart-timeline-latency .chart-value')).trim() === '\u2014', 'no latency without calls');
            check((await page.locator('#chart-timeline-errors .chart-value').getAttribute('data-value')) === '0', 'no failures');
        } finally {
            await page.unroute(route);
        }
    });

    const message = `Please echo hello from the browser. ${args.key}`;
    await step('chat-empty', async () => {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Chat', exact: true }).click();
        await page.getByRole('heading', { name: 'Start a conversation' }).waitFor();
        await page.getByLabel('Assistant').selectOption({ label: assistantName });
        await page.fill('#chat-input', message);
    });

    await step('chat-tool-done', async () => {
        await page.keyboard.press('Enter');
        // two calls side by side: one with the right argument, one with a wrong one that the tool refuses
        const block = page.locator('.tool-block[data-tool="echo"][data-status="done"]');
        await block.waitFor({ timeout: 60_000 });
        const failed = page.locator('.tool-block[data-tool="echo"][data-status="error"]');
        await failed.waitFor();
        check((await failed.locator('.tc-status').textContent()).includes('Failed'), 'the failed call says Failed');
        check(await failed.locator('details.tc-section:has(.tc-result)').evaluate(d => d.open), 'a failure shows its result at once');
        check((await failed.locator('.tc-result').textContent()).trim().length > 0, 'the failure is explained');
        check((await block.locator('.tc-status').textContent()).includes('Done'), 'the block says Done');
        check((await block.locator('.tc-args').textContent()).includes('hello from the browser'), 'the block shows the arguments');
        await page.locator('.msg-assistant .msg-text').filter({ hasText: 'The echo tool answered: hello from the browser.' }).waitFor();
        await page.locator('#chat-send:not([hidden])').waitFor();
        // the result is collapsed until asked for
        check(!(await block.locator('details.tc-section:has(.tc-result)').evaluate(d => d.open)), 'the result starts collapsed');
        await block.getByText('Result', { exact: true }).click();
        check((await block.locator('.tc-result').textContent()).includes('Echo: hello from the browser'), 'the result is the echo');
        check(/\/#\/chat\/\d+$/.test(page.url()), `the address names the conversation: ${page.url()}`);
        // auto-approved calls run at once: never shown as waiting for approval
        for (const [id, last] of [['call-echo-1', 'done'], ['call-echo-2', 'error']]) {
            const seen = await toolCallStatuses(id);
            check(seen[seen.length - 1] === last && !seen.includes('pending') && seen.every(st => ['invoking', last].includes(st)),
                `${id} went from invoking to ${last}: ${seen}`);
        }
        result.conversationId = Number(page.url().split('/').pop());
        await page.locator(`.conv-item[data-conversation-id="${result.conversationId}"][aria-current="page"]`).waitFor();
        check((await page.locator(`.conv-item[data-conversation-id="${result.conversationId}"]`).textContent()).includes(assistantName),
            'the conversation list names the assistant');
    });

    await step('chat-new-is-empty', async () => {
        await page.click('#new-chat');
        await page.getByRole('heading', { name: 'Start a conversation' }).waitFor();
    });

    await step('chat-reopened', async () => {
        await page.locator(`.conv-item[data-conversation-id="${result.conversationId}"]`).click();
        await page.locator('.msg-user').filter({ hasText: 'Please echo hello from the browser' }).waitFor();
        await page.locator('.tool-block[data-tool="echo"][data-status="done"]').waitFor();
        await page.locator('.tool-block[data-tool="echo"][data-status="error"]').waitFor();
        await page.locator('.msg-assistant .msg-text').filter({ hasText: 'The echo tool answered' }).waitFor();
        check(await page.getByLabel('Assistant').inputValue() !== '', 'the conversation\u2019s assistant is picked again');
    });

    await step('chat-continued', async () => {
        await page.fill('#chat-input', 'And once more, briefly.');
        await page.click('#chat-send');
        await page.locator('.msg-assistant .msg-text').filter({ hasText: 'Still here, same conversation.' }).waitFor();
        await page.locator('.msg-assistant .msg-text li code').filter({ hasText: 'echo' }).waitFor(); // Markdown, drawn safely
        await page.locator('#chat-send:not([hidden])').waitFor();
        const stored = await rest('GET', `/api/conversations/${result.conversationId}/messages`);
        check(stored.status === 200, `messages: ${stored.status}`);
        const users = stored.json.data.filter(m => m.role === 'user');
        check(users.length === 2, `both questions are in the reopened conversation: ${JSON.stringify(stored.json.data.map(m => m.role))}`);
    });

    // get-sum is not auto-approved: the run waits (at most switchboard.chat.approval-timeout, 4 s on the IT server),
    // so each decision is clicked in the step that sees the call pending
    async function askForSum(key, decision) {
        await page.click('#new-chat');
        await page.getByRole('heading', { name: 'Start a conversation' }).waitFor();
        await page.fill('#chat-input', `Add two numbers. ${key}`);
        await page.keyboard.press('Enter');
        const pending = page.locator('.tool-block[data-tool="get-sum"][data-status="pending"]');
        await pending.waitFor({ timeout: 60_000 });
        check((await pending.locator('.tc-status').textContent()).includes('Waiting for approval'), 'pending in words');
        // by keyboard: the decision buttons are ordinary buttons
        await pending.getByRole('button', { name: `${decision} get-sum`, exact: true }).focus();
        await page.keyboard.press('Enter');
        return page.locator('.tool-block[data-tool="get-sum"]');
    }

    await step('chat-approved', async () => {
        const block = await askForSum(args['approve-key'], 'Approve');
        await page.locator('.tool-block[data-tool="get-sum"][data-status="done"]').waitFor();
        await page.getByRole('status').filter({ hasText: 'Approved get-sum' }).first().waitFor();
        check(await block.getByRole('button', { name: 'Approve get-sum' }).isHidden(), 'the decision buttons are gone');
        await block.getByText('Result', { exact: true }).click();
        check((await block.locator('.tc-result').textContent()).includes('The sum of 2 and 3 is 5'), 'the tool ran and its result is shown');
        await page.locator('.msg-assistant .msg-text').filter({ hasText: 'Two and three make five, says get-sum.' }).waitFor();
        await page.locator('#chat-send:not([hidden])').waitFor();
        result.approvedMessageId = Number(await block.getAttribute('data-message-id'));
        const seen = await toolCallStatuses('call-sum-approved');
        check(JSON.stringify(seen) === JSON.stringify(['pending', 'invoking', 'done']), `the approved call went pending, invoking, done: ${seen}`);
    });

    await step('chat-rejected', async () => {
        const block = await askForSum(args['reject-key'], 'Reject');
        await page.locator('.tool-block[data-tool="get-sum"][data-status="cancelled"]').waitFor();
        check((await block.locator('.tc-status').textContent()).includes('Rejected'), 'the block says the call was rejected');
        check(await block.locator('.tc-result').count() === 0 || !(await block.locator('.tc-result').textContent()).includes('The sum'),
            'a rejected call has no tool result');
        await page.locator('.msg-assistant .msg-text').filter({ hasText: 'Understood, I will not add them.' }).waitFor();
        await page.locator('#chat-send:not([hidden])').waitFor();
        result.rejectedMessageId = Number(await block.getAttribute('data-message-id'));
        const seen = await toolCallStatuses('call-sum-rejected');
        check(JSON.stringify(seen) === JSON.stringify(['pending', 'cancelled']), `the rejected call went pending, cancelled: ${seen}`);
    });

    await step('chat-stopped', async () => {
        await page.click('#new-chat');
        await page.getByRole('heading', { name: 'Start a conversation' }).waitFor();
        await page.fill('#chat-input', `Tell me something long. ${args['slow-key']}`);
        await page.keyboard.press('Enter');
        await page.locator('.msg-assistant .msg-text').filter({ hasText: 'This answer is long' }).waitFor();
        await page.getByRole('button', { name: 'Stop' }).click();
        await page.locator('.msg-note').filter({ hasText: 'Stopped.' }).waitFor();
        await page.locator('#chat-send:not([hidden])').waitFor();
        const shown = await page.locator('.msg-assistant .msg-text').last().textContent();
        check(shown.length < 6 * 90, `the answer stopped halfway (${shown.length} characters)`);
        check(await page.evaluate(() => document.activeElement.id) === 'chat-input', 'focus goes back to the message box');
        // what arrived is kept: the conversation is listed and current, named after its assistant
        const current = page.locator('.conv-item[aria-current="page"]');
        await current.filter({ hasText: 'Tell me something long' }).waitFor();
        check((await current.textContent()).includes(assistantName), 'the list names the assistant');
        check(/\/#\/chat\/\d+$/.test(page.url()), `the address names the stopped conversation: ${page.url()}`);
    });

    await step('gateway', async () => {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Gateway', exact: true }).click();
        // the tools are listed by the server, a page at a time: the total counts every tool of the tenant
        await page.locator('#gateway-tool-table[data-total]:not([aria-busy])').waitFor({ timeout: 60_000 });
        result.gatewayTools = Number(await page.getAttribute('#gateway-tool-table', 'data-total'));
        check((await page.textContent('#gateway-tools-facts')).includes('shared backend'), 'the listing facts are shown');
        await page.fill('#gateway-tool-search', `${serverName}__echo`);
        // Enter searches at once (typing waits 250 ms first), so the table cannot still show the unfiltered page below
        await page.press('#gateway-tool-search', 'Enter');
        const row = page.locator(`#gateway-tool-table tr[data-public-name="${serverName}__echo"]`);
        await row.waitFor();
        await page.locator('#gateway-tool-table:not([aria-busy])').waitFor();
        check(await page.locator('#gateway-tool-table tr.tool-row').count() === 1, 'the search finds the tool by public name');
        // the default tenant may share more servers than the cards shown at first
        if (await page.isVisible('#backends-show-all')) await page.click('#backends-show-all');
        await page.locator(`.backend-card[data-backend-name="${serverName}"]`).waitFor();
    });

    // a real MCP client (the official SDK, src/test/node/gateway-client.mjs) holds a session while the page looks
    const clientName = `console-e2e-${Date.now().toString(36)}`;
    let sdkClient;
    await step('gateway-live-session', async () => {
        const nodeDir = path.dirname(path.resolve(args['node-modules']));
        const script = path.join(nodeDir, 'gateway-client.mjs');
        fs.copyFileSync(new URL('./gateway-client.mjs', import.meta.url), script);
        const token = await page.evaluate(() => sessionStorage.getItem('switchboard.token'));
        // get-sum, not echo: the audit steps below count the IT's echo calls
        const steps = [{ op: 'call', name: `${serverName}__get-sum`, arguments: { a: 1, b: 2 } }, { op: 'wait', ms: 20_000 }];
        sdkClient = { output: '', exited: null };
        const child = spawn('node', [script, `${BASE}/mcp`, token, JSON.stringify(steps)],
            { cwd: nodeDir, env: { ...process.env, MCP_CLIENT_NAME: clientName }, stdio: ['ignore', 'pipe', 'inherit'] });
        child.stdout.on('data', (d) => { sdkClient.output += d; });
        sdkClient.exited = new Promise((resolve) => child.on('exit', resolve));

        const row = page.locator(`#gateway-session-table tr[data-state="open"]`).filter({ hasText: clientName });
        for (let i = 0; i < 40 && !(await row.count()); i++) {
            await page.waitForTimeout(250);
            if (i % 4 === 3) await page.click('#sessions-refresh');
        }
        await row.waitFor();
        check((await row.getAttribute('data-subject')) === 'admin', 'the session names who is connected');
        const text = await row.textContent();
        check(text.includes('tenant default') && text.includes('Streamable HTTP') && /\/mcp · \d{4}-\d{2}-\d{2}/.test(text),
            `tenant, transport, endpoint and protocol are shown: ${text}`);
        check(text.includes('1.0.0'), 'the client version is shown');
        // the row counts its backend sessions; opening it lists them in a row below
        result.liveSessionId = await row.getAttribute('data-session-id');
        await row.locator('.backend-toggle').click();
        await page.locator(`#gateway-session-table tr[data-backends-of="${result.liveSessionId}"] .backend-session[data-server-name="${serverName}"]`).waitFor();
        await row.scrollIntoViewIfNeeded();
    });

    await step('gateway-session-ended', async () => {
        const code = await sdkClient.exited;
        check(code === 0, `the SDK client finished: ${code}`);
        const output = JSON.parse(sdkClient.output);
        check(output.initialize.sessionId === result.liveSessionId, `the row is the client's session: ${output.initialize.sessionId}`);
        check(output.steps[0].result && !output.steps[0].result.isError, `the client's call worked: ${JSON.stringify(output.steps[0])}`);
        // the client ended its session (DELETE): it leaves the open sessions and is listed as ended
        await page.click('#sessions-refresh');
        await page.locator(`#gateway-session-table tr[data-session-id="${result.liveSessionId}"]`).waitFor({ state: 'detached' });
        await page.selectOption('#session-state', 'ended');
        const ended = page.locator(`#gateway-session-table tr[data-session-id="${result.liveSessionId}"][data-state="ended"]`);
        await ended.waitFor();
        check((await ended.textContent()).includes('ended: deleted'), 'the end reason is shown');
        await page.selectOption('#session-state', 'open');
    });

    await step('gateway-sessions-of-a-tenant', async () => {
        // the IT's user of --tenant-id opened and ended --paging-sessions sessions: more than a page of SESSION_PAGE
        const total = Number(args['paging-sessions']);
        const SESSION_PAGE = 10;
        const rows = page.locator('#gateway-session-table tbody tr[data-session-id]');
        await page.selectOption('#session-state', 'ended');
        await page.fill('#session-tenant', args['tenant-id']);
        await page.keyboard.press('Enter');
        // the state filter's own load (the admin's tenant) may also show a full page: wait for the tenant's rows
        await page.waitForFunction((user) => {
            const trs = [...document.querySelectorAll('#gateway-session-table tbody tr[data-session-id]')];
            return trs.length > 0 && trs.every(tr => tr.dataset.subject === user);
        }, args['tenant-user'], { timeout: 15000 }).catch(() => {});
        await page.locator('#session-count').filter({ hasText: `1\u2013${SESSION_PAGE} of ${total} sessions` }).waitFor();
        const subjects = await rows.evaluateAll(trs => trs.map(tr => tr.dataset.subject));
        check(subjects.length === SESSION_PAGE && subjects.every(s => s === args['tenant-user']), `only that tenant's sessions: ${subjects}`);
        check((await rows.first().textContent()).includes(`tenant ${args['tenant-id']}`), 'the row names the tenant');
        check(await page.isDisabled('#session-prev') && await page.isEnabled('#session-next'), 'Next is offered on the first page');
        const first = await rows.evaluateAll(trs => trs.map(tr => tr.dataset.sessionId));
        await page.click('#session-next');
        const rest = total - SESSION_PAGE;
        await page.locator('#session-count').filter({ hasText: `${rest === 1 ? total : `${SESSION_PAGE + 1}\u2013${total}`} of ${total} sessions` }).waitFor();
        const second = await rows.evaluateAll(trs => trs.map(tr => tr.dataset.sessionId));
        check(second.length === rest && second.every(id => !first.includes(id)), `the second page holds the rest: ${second}`);
        check(await page.isDisabled('#session-next') && await page.isEnabled('#session-prev'), 'the last page has no Next');
        await page.click('#session-prev');
        await page.locator('#session-count').filter({ hasText: `1\u2013${SESSION_PAGE} of ${total} sessions` }).waitFor();
        check(JSON.stringify(await rows.evaluateAll(trs => trs.map(tr => tr.dataset.sessionId))) === JSON.stringify(first), 'back on the first page');
        await page.locator('#gateway-sessions').scrollIntoViewIfNeeded();
    });

    await step('gateway-sessions-filter-cleared', async () => {
        await page.fill('#session-tenant', '');
        await page.keyboard.press('Enter');
        await page.locator(`#gateway-session-table tr[data-session-id="${result.liveSessionId}"]`).waitFor();
        check(await page.locator(`#gateway-session-table tr[data-subject="${args['tenant-user']}"]`).count() === 0, 'back to the admin\u2019s own tenant');
        await page.selectOption('#session-state', 'open');
    });

    const auditedTool = `${serverName}__echo`;
    const longSubject = args['long-subject'];
    await step('audit-page', async () => {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit', exact: true }).click();
        await page.locator('#audit-table:not([aria-busy])').waitFor();
        // the IT made one tools/call through /mcp before the browser started; the audit writer is asynchronous
        const row = page.locator(`#audit-table tr[data-tool="${auditedTool}"]`);
        for (let attempt = 0; attempt < 10 && !(await row.count()); attempt++) {
            await page.waitForTimeout(500);
            await page.click('#audit-apply');
            await page.locator('#audit-table:not([aria-busy])').waitFor();
        }
        check(await row.count() >= 1, `the audited gateway call is listed (${auditedTool})`);
        const first = row.first();
        check((await first.locator('td').nth(2).textContent()) === 'tools/call', 'the action is shown');
        check((await first.locator('.audit-tool').textContent()) === auditedTool, 'the tool is shown');
        check((await first.locator('.audit-backend').textContent()) === `on ${serverName}`, 'the backend is shown');
        // the newest rows may be the chat's two echo calls above (one refused by the tool); the gateway's answered ok
        check((await row.locator('td:nth-child(6)').allTextContents()).includes('ok'), 'the outcome is shown');
        // every column fits a laptop screen, with the long subject of one of the calls (the IT's long-named user): the
        // table neither scrolls sideways in its frame nor reaches past the frame, the card or the screen
        check(page.viewportSize().width === 1280, 'the audit page is looked at on a 1280 px screen');
        check(await page.locator('#audit-table td', { hasText: longSubject }).count() >= 1, `the long subject is listed (${longSubject})`);
        const fit = await page.locator('#audit-table').evaluate(t => {
            const frame = t.parentElement;
            const card = t.closest('.card');
            return {
                scrolls: frame.scrollWidth - frame.clientWidth,
                pastFrame: t.getBoundingClientRect().right - frame.getBoundingClientRect().right,
                pastCard: t.getBoundingClientRect().right - card.getBoundingClientRect().right,
                pastScreen: t.getBoundingClientRect().right - document.documentElement.clientWidth,
            };
        });
        check(fit.scrolls <= 0 && fit.pastFrame <= 0 && fit.pastCard <= 0 && fit.pastScreen <= 0,
            `the audit table fits 1280 px: ${JSON.stringify(fit)}`);
    });

    await step('audit-filtered', async () => {
        await page.fill('#audit-tool', auditedTool);
        await page.fill('#audit-subject', 'admin');
        await page.click('#audit-apply');
        await page.locator('#audit-table:not([aria-busy])').waitFor();
        const firstPage = await page.locator('#audit-table tbody tr').count();
        check(firstPage === 50 && (await page.textContent('#audit-count')) === '50 events so far', `one page of 50: ${firstPage}`);
        await page.getByRole('button', { name: 'Load more' }).click();
        await page.locator('#audit-table:not([aria-busy])').waitFor();
        const rows = await page.locator('#audit-table tbody tr').evaluateAll(trs => trs.map(tr => ({ tool: tr.dataset.tool, id: Number(tr.dataset.auditId) })));
        // the IT's gateway calls and the chat's two calls of echo (the chat loop's tool calls are audited too), all by admin
        check(rows.length === Number(args['audited-calls']) + 2, `both pages hold every call: ${rows.length}`);
        check(rows.every(r => r.tool === auditedTool), `only the filtered tool is listed: ${JSON.stringify(rows.map(r => r.tool))}`);
        check(rows.every((r, i) => i === 0 || r.id < rows[i - 1].id), 'newest first, no event twice');
        check(await page.getByRole('button', { name: 'Load more' }).isHidden(), 'the last page has no Load more');
        await page.fill('#audit-decision', 'deny');
        await page.keyboard.press('Enter');
        await page.getByText('Nothing matches these filters').waitFor();
        await page.fill('#audit-decision', '');
        await page.fill('#audit-from', '2030-01-02T00:00:00');
        await page.fill('#audit-to', '2030-01-01T00:00:00');
        await page.click('#audit-apply');
        await page.getByRole('alert').filter({ hasText: 'The time range is empty' }).waitFor();
        await page.fill('#audit-from', '');
        await page.fill('#audit-to', '');
        await page.click('#audit-apply');
        await page.locator('#audit-table:not([aria-busy])').waitFor();
        await page.locator(`#audit-table tr[data-tool="${auditedTool}"]`).first().waitFor();
    });

    await step('audit-detail', async () => {
        // a row that answered ok (the newest may be the chat's echo call the tool refused)
        const okRow = page.locator(`#audit-table tr[data-tool="${auditedTool}"]`)
            .filter({ has: page.locator('td:nth-child(6)', { hasText: /^ok$/ }) }).first();
        await okRow.getByRole('button').click();
        const drawer = page.locator('dialog[open] #audit-detail');
        await drawer.waitFor();
        const field = async name => (await drawer.locator(`dd[data-field="${name}"]`).textContent()).trim();
        check(/^[0-9a-f]{64}$/.test(await field('Input hash')), `the input hash is shown: ${await field('Input hash')}`);
        check(/^v\d+$/.test(await field('Key version')), `the key version is shown: ${await field('Key version')}`);
        check((await field('Trace id')).length >= 16, 'the trace id is shown');
        check(await field('Outcome') === 'ok' && /^\d+ ms$/.test(await field('Duration')), 'outcome and duration are shown');
        check(!(await drawer.textContent()).includes('audited from the console test'), 'the input itself is not shown');
        const traceCell = okRow.locator('td.trace-id');
        check(await traceCell.getAttribute('title') === await field('Trace id') && (await traceCell.textContent()).startsWith((await field('Trace id')).slice(0, 8)),
            'the table shows the start of the trace id, whole on hover');
    });

    await step('audit-verified', async () => {
        await page.keyboard.press('Escape');
        await page.locator('dialog[open]').waitFor({ state: 'detached' });
        await page.getByRole('button', { name: 'Verify chain' }).click();
        const ok = page.locator('#audit-verify .result.ok[data-valid="true"]');
        await ok.waitFor();
        check(/Chain intact for tenant default/.test(await ok.textContent()) && /\d+ events? checked/.test(await ok.textContent()),
            `the verification in words: ${await ok.textContent()}`);
    });

    await step('audit-tenant-filter', async () => {
        // an admin of the default tenant reads any tenant's trail: --tenant-id has no events
        await page.fill('#audit-tenant', args['tenant-id']);
        await page.click('#audit-apply');
        await page.getByText('Nothing matches these filters').waitFor();
        await page.fill('#audit-tenant', 'default');
        await page.click('#audit-apply');
        await page.locator(`#audit-table tr[data-tool="${auditedTool}"]`).first().waitFor();
        await page.click('#audit-clear');
        await page.locator('#audit-table:not([aria-busy])').waitFor();
    });

    // tenants: the IT made a user in tenant --tenant-id, so deleting the tenant is refused until that user is gone
    const tenantId = args['tenant-id'];
    const tenantRow = () => page.locator(`#tenant-table tr[data-tenant-id="${tenantId}"]`);
    const openPolicy = async () => {
        await tenantRow().getByRole('button', { name: `Policy of ${tenantId}` }).click();
        await page.locator('dialog[open] #policy-form').waitFor();
    };
    const topDialog = () => page.locator('dialog[open]').last();
    await step('tenant-created', async () => {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tenants', exact: true }).click();
        await page.locator('#tenant-table:not([aria-busy])').waitFor();
        await page.click('#tenant-new');
        await page.fill('#tenant-id', tenantId);
        await page.fill('#tenant-name', `Console tenant ${tenantId}`);
        await page.click('#tenant-save');
        await page.locator('dialog[open]').waitFor({ state: 'detached' });
        await page.locator(`#tenant-table tr[data-tenant-id="${tenantId}"][data-policy="none"]`).waitFor();
        check((await tenantRow().locator('.policy-summary').textContent()).includes('Unrestricted'), 'a new tenant is unrestricted');
        check(/^\d+\u2013\d+ of \d+ tenants?$/.test(await page.textContent('#tenant-count')), `the page says where it is: ${await page.textContent('#tenant-count')}`);
    });

    await step('tenant-bad-pattern', async () => {
        await openPolicy();
        // the gateway's tools are offered: one chip per backend, every public tool name in the datalist
        await page.locator(`#policy-backend-suggestions [data-pattern="${serverName}__*"]`).waitFor();
        check(await page.locator(`#policy-tool-names option[value="${serverName}__echo"]`).count() === 1, 'tool names are suggested');
        await page.check('#policy-tools-restrict');
        await page.fill('#policy-tools', `${serverName}__echo\nnot a pattern`);
        expectHttpError(400);
        await page.click('#policy-save');
        const error = page.locator('[data-field="tools"] .field-error[data-code="invalid_tool_pattern"]');
        await error.waitFor();
        check((await error.textContent()).includes("'not a pattern' is not a tool pattern"), `the API's reason next to the allowlist: ${await error.textContent()}`);
        check(await page.evaluate(() => document.activeElement.id) === 'policy-tools', 'focus goes to the allowlist');
    });

    await step('tenant-policy-form', async () => {
        await page.fill('#policy-tools', `${serverName}__echo`);
        await page.click(`#policy-backend-suggestions [data-pattern="${serverName}__*"]`);
        await page.fill('#policy-tool-add', `${serverName}__get-sum`);
        await page.keyboard.press('Enter');
        check(await page.inputValue('#policy-tools') === `${serverName}__echo\n${serverName}__*\n${serverName}__get-sum`, `the allowlist: ${await page.inputValue('#policy-tools')}`);
        await page.check('#policy-backends-restrict');
        await page.click(`#policy-resource-suggestions [data-backend="${serverName}"]`);
        await page.check('#policy-rate-on');
        await page.fill('#policy-rate-requests', '5');
        await page.selectOption('#policy-rate-per', 'minute');
        await page.fill('#policy-rate-burst', '8');
        await page.check('#policy-rate-per-subject');
        await page.click('#policy-rule-add');
        await page.getByLabel('Rule 1 tool pattern').fill(`${serverName}__echo`);
        await page.getByLabel('Rule 1 retry allowed').check();
        await page.getByLabel('Rule 1 risk').selectOption('low');
        await page.fill('#policy-networks', '10.20.0.0/16\nmcp.internal.example');
    });

    await step('tenant-policy-saved', async () => {
        await page.click('#policy-save');
        await page.locator('dialog[open]').waitFor({ state: 'detached' });
        await page.reload();
        await page.locator(`#tenant-table tr[data-tenant-id="${tenantId}"][data-policy="bound"]`).waitFor();
        const summary = await tenantRow().locator('.policy-summary').textContent();
        check(summary.includes(`${serverName}__echo`) && summary.includes('5 per minute, burst 8, per user') && summary.includes('1 retry rule')
            && summary.includes('may reach: 10.20.0.0/16, mcp.internal.example'),
            `the table sums the policy up: ${summary}`);
        await openPolicy();
        check(await page.inputValue('#policy-tools') === `${serverName}__echo\n${serverName}__*\n${serverName}__get-sum`, 'the allowlist is kept');
        check(await page.inputValue('#policy-backends') === serverName, 'the backends are kept');
        check(await page.isChecked('#policy-rate-on') && await page.inputValue('#policy-rate-requests') === '5'
            && await page.inputValue('#policy-rate-per') === 'minute' && await page.inputValue('#policy-rate-burst') === '8'
            && await page.isChecked('#policy-rate-per-subject'), 'the rate limit is kept');
        check(await page.getByLabel('Rule 1 tool pattern').inputValue() === `${serverName}__echo` && await page.getByLabel('Rule 1 retry allowed').isChecked()
            && await page.getByLabel('Rule 1 risk').inputValue() === 'low', 'the retry rule is kept');
        check(await page.inputValue('#policy-networks') === '10.20.0.0/16\nmcp.internal.example', 'the internal networks are kept');
        const stored = await rest('GET', `/api/tenants/${tenantId}`);
        check(JSON.stringify(stored.json.policy) === JSON.stringify({
            tools: [`${serverName}__echo`, `${serverName}__*`, `${serverName}__get-sum`], resourceBackends: [serverName],
            rateLimit: { requests: 5, per: 'minute', burst: 8, perSubject: true },
            toolRules: [{ tool: `${serverName}__echo`, retryAllowed: true, risk: 'low' }],
            allowedNetworks: ['10.20.0.0/16', 'mcp.internal.example'],
        }), `the API holds what the form showed: ${JSON.stringify(stored.json.policy)}`);
    });

    await step('tenant-phone-editor', async () => {
        await page.setViewportSize({ width: 390, height: 844 });
        await page.locator('#policy-rules').scrollIntoViewIfNeeded();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        check(overflow <= 0, `no horizontal scrolling on a phone: policy editor (overflow ${overflow})`);
        const dialogOverflow = await page.locator('dialog[open] .modal-body').evaluate(b => b.scrollWidth - b.clientWidth);
        check(dialogOverflow <= 0, `the policy editor fits a phone (overflow ${dialogOverflow})`);
        // buttons pushed out of a flex row overflow to the left, which scrollWidth does not count
        const outside = await page.locator('dialog[open]').evaluate(d => {
            const box = d.getBoundingClientRect();
            return [...d.querySelectorAll('.modal-foot button')].filter(b => { const r = b.getBoundingClientRect(); return r.left < box.left || r.right > box.right; })
                .map(b => b.textContent);
        });
        check(!outside.length, `every button of the editor is on the screen: ${outside}`);
    });

    await step('tenant-phone-list', async () => {
        await page.keyboard.press('Escape');
        await page.locator('dialog[open]').waitFor({ state: 'detached' });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        check(overflow <= 0, `no horizontal scrolling on a phone: tenants (overflow ${overflow})`);
    });

    await step('tenant-renamed', async () => {
        await page.setViewportSize(LAPTOP);
        await tenantRow().getByRole('button', { name: `Rename ${tenantId}` }).click();
        check(await page.isDisabled('#tenant-id'), 'the id cannot change');
        await page.fill('#tenant-name', 'Renamed in the browser');
        await page.click('#tenant-save');
        await page.locator('dialog[open]').waitFor({ state: 'detached' });
        await tenantRow().getByText('Renamed in the browser').waitFor();
    });

    await step('tenant-in-use', async () => {
        await tenantRow().getByRole('button', { name: `Delete ${tenantId}` }).click();
        expectHttpError(409);
        await topDialog().getByRole('button', { name: 'Delete' }).click();
        const alert = page.locator(`#tenant-in-use[data-tenant-id="${tenantId}"]`);
        await alert.waitFor();
        check((await alert.textContent()).includes(`Tenant ${tenantId} is still in use`), `the refusal in words: ${await alert.textContent()}`);
        check(await tenantRow().count() === 1, 'the tenant is kept');
    });

    await step('tenant-policy-removed', async () => {
        await openPolicy();
        await page.click('#policy-remove');
        const confirm = topDialog();
        check((await confirm.textContent()).includes(`Tenant ${tenantId} becomes unrestricted`), `the confirmation says what removing means: ${await confirm.textContent()}`);
        await confirm.getByRole('button', { name: 'Remove policy' }).click();
        await page.locator('dialog[open]').waitFor({ state: 'detached' });
        await page.locator(`#tenant-table tr[data-tenant-id="${tenantId}"][data-policy="none"]`).waitFor();
        check((await rest('GET', `/api/tenants/${tenantId}`)).json.policy === null, 'the API has no policy for it');
    });

    await step('tenant-deleted', async () => {
        const gone = await rest('DELETE', `/api/users/${encodeURIComponent(args['tenant-user'])}`);
        check(gone.status === 204, `the tenant's user was deleted: ${gone.status}`);
        await tenantRow().getByRole('button', { name: `Delete ${tenantId}` }).click();
        await topDialog().getByRole('button', { name: 'Delete' }).click();
        await page.getByRole('status').filter({ hasText: `Tenant ${tenantId} deleted` }).first().waitFor();
        await tenantRow().waitFor({ state: 'detached' });
        check(await page.locator('#tenant-in-use').count() === 0, 'the old refusal is gone');
        result.deletedTenant = tenantId;
    });

    await step('tenant-pages', async () => {
        // the IT made --paging-tenants more tenants, so the list has a second page of 20
        await page.reload();
        await page.locator('#tenant-table:not([aria-busy])').waitFor();
        const total = Number((await page.textContent('#tenant-count')).match(/of (\d+)/)[1]);
        check(total >= Number(args['paging-tenants']) && total > 20, `every tenant is counted: ${total}`);
        check(await page.locator('#tenant-table tbody tr').count() === 20 && await page.isDisabled('#tenant-prev'), 'the first page holds 20');
        const first = await page.locator('#tenant-table tbody tr').first().getAttribute('data-tenant-id');
        await page.click('#tenant-next');
        await page.locator('#tenant-count').filter({ hasText: /^21\u2013/ }).waitFor();
        const second = await page.locator('#tenant-table tbody tr').evaluateAll(trs => trs.map(tr => tr.dataset.tenantId));
        check(!second.includes(first) && second.length === Math.min(20, total - 20), `the second page holds the next ones: ${second}`);
        await page.click('#tenant-prev');
        await page.locator('#tenant-count').filter({ hasText: /^1\u2013/ }).waitFor();
        check(await page.locator('#tenant-table tbody tr').first().getAttribute('data-tenant-id') === first, 'back on the first page');
    });

    await step('query-schema-search', async () => {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Query', exact: true }).click();
        await page.locator('#schema-results li[data-table="users"]').waitFor();
        await page.fill('#schema-search', '订单');
        await page.locator('#schema-results[data-showing="订单"]').waitFor();
        const table = page.locator('#schema-results li[data-table="orders"]');
        await table.waitFor();
        check((await table.locator('.schema-comment').textContent()).trim().length > 0, 'the table\u2019s comment is shown');
        check(await page.locator('#schema-results .schema-column').count() >= 1, 'matching columns are listed');
        await table.locator('summary').click();
        await table.locator('li[data-column="orders.order_no"]').waitFor();
    });

    await step('query-answered', async () => {
        await page.fill('#query-question', `用户订单 ${args['query-key']}`);
        await page.fill('#query-limit', '3');
        await page.keyboard.press('Enter');
        await page.locator('#query-sql').waitFor({ timeout: 60_000 });
        const sql = await page.textContent('#query-sql');
        check(/^SELECT u\.name, o\.order_no FROM users u JOIN orders o/.test(sql) && /LIMIT 4\s*$/.test(sql), `the guarded SQL is shown: ${sql}`);
        check((await page.textContent('#query-explanation')).includes('users'), 'the explanation is shown');
        check(await page.locator('#query-table tbody tr').count() === 3, 'three rows are shown');
        check(await page.locator('#query-table thead th').allTextContents().then(t => t.join(',')) === 'name,order_no', 'the columns are shown');
        const facts = page.locator('#query-facts');
        check(await facts.getAttribute('data-row-count') === '3' && await facts.getAttribute('data-truncated') === 'true', 'row count and truncation');
        check(/3 rows/.test(await facts.textContent()) && /ran in \d+\.\d{3}s/.test(await facts.textContent()) && /Truncated/.test(await facts.textContent()),
            `the facts in words: ${await facts.textContent()}`);
    });

    await step('query-csv', async () => {
        const [download] = await Promise.all([page.waitForEvent('download'), page.click('#query-csv')]);
        check(/^query-.*\.csv$/.test(download.suggestedFilename()), `a CSV file name: ${download.suggestedFilename()}`);
        const text = (await fs.promises.readFile(await download.path(), 'utf8')).replace(/^\ufeff/, '');
        const lines = text.split('\r\n');
        check(lines[0] === 'name,order_no' && lines.length === 5 && lines[4] === '', `header, three rows and a final CRLF: ${JSON.stringify(lines)}`);
        const shown = await page.locator('#query-table tbody tr').first().locator('td').allTextContents();
        check(lines[1] === shown.join(','), `the first row is the one shown: ${lines[1]} vs ${shown}`);
        result.csvRows = lines.length - 2;
    });

    await step('query-refused', async () => {
        expectHttpError(422);
        await page.fill('#query-question', `删除订单 ${args['refuse-key']}`);
        await page.click('#query-ask');
        const alert = page.locator('#query-error .alert');
        await alert.waitFor({ timeout: 60_000 });
        const text = await alert.textContent();
        check(text.includes('The SQL was not run') && text.includes('not_select') && text.includes('只允许 SELECT'), `the guard's reason in words: ${text}`);
        check((await page.textContent('#query-refused-sql')).trim() === 'DELETE FROM orders', 'the refused SQL is shown');
        check(await page.locator('#query-table').count() === 0, 'no rows are shown');
    });

    await step('overview-numbers', async () => {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview', exact: true }).click();
        await page.locator('#chart-calls .chart-value').waitFor();
        const calls = Number(await page.locator('#chart-calls .chart-value').getAttribute('data-value'));
        check(calls >= 1, `the echo call is counted: ${calls}`);
        // a second sample draws a line, not a dot
        await page.waitForFunction(() => /Updated/.test(document.getElementById('sampled-at')?.textContent || ''));
        await page.waitForTimeout(4500);
        result.poolCalls = calls;
    });

    await step('chat-model-failure-in-words', async () => {
        // no script answers this message: the provider fails, and the console says so in words (before or inside the stream)
        await page.setViewportSize(LAPTOP);
        await page.goto(`${BASE}/#/chat`);
        await page.getByRole('heading', { name: 'Start a conversation' }).waitFor();
        expectHttpError(502);
        await page.fill('#chat-input', 'A question no script answers.');
        await page.keyboard.press('Enter');
        const before = page.locator('#chat-error .alert').filter({ hasText: 'The model did not answer' });
        const inside = page.locator('.msg-note.error');
        await Promise.race([before.waitFor(), inside.waitFor()]);
        if (await before.count()) {
            check(await page.inputValue('#chat-input') === 'A question no script answers.', 'the message is kept to send again');
        }
        await page.locator('#chat-send:not([hidden])').waitFor();
    });

    await step('chat-narrow-laptop', async () => {
        await page.setViewportSize({ width: 1024, height: 700 });
        await page.goto(`${BASE}/#/chat/${result.conversationId}`);
        await page.locator('.tool-block[data-tool="echo"][data-status="done"]').waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        check(overflow <= 0, `no horizontal scrolling at 1024 px (overflow ${overflow})`);
    });
    // a phone: the sidebar is a top bar with one scrollable line of links, and no page scrolls sideways
    const noSidewaysScrolling = async (what) => {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        check(overflow <= 0, `no horizontal scrolling on a phone: ${what} (overflow ${overflow})`);
    };
    await step('phone-chat', async () => {
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto(`${BASE}/#/chat/${result.conversationId}`);
        await page.locator('.tool-block[data-tool="echo"][data-status="done"]').waitFor();
        await noSidewaysScrolling('chat');
    });

    await step('phone-query', async () => {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Query', exact: true }).click();
        await page.locator('#schema-results li[data-table="users"]').waitFor();
        await page.fill('#query-question', `用户订单 ${args['query-key']}`);
        await page.fill('#query-limit', '3');
        await page.click('#query-ask');
        await page.locator('#query-table tbody tr').first().waitFor();
        await noSidewaysScrolling('query with a result');
        await page.locator('#query-sql').scrollIntoViewIfNeeded();
    });

    await step('phone-audit', async () => {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit', exact: true }).click();
        await page.locator('#audit-table:not([aria-busy])').waitFor();
        await noSidewaysScrolling('audit');
        await page.locator('#audit-table tbody tr').first().getByRole('button').click();
        await page.locator('dialog[open] #audit-detail').waitFor();
        await noSidewaysScrolling('audit event drawer');
    });

    await step('phone-servers', async () => {
        await page.keyboard.press('Escape');
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'MCP servers', exact: true }).click();
        await page.locator(`[data-server-name="${serverName}"]`).waitFor();
        await noSidewaysScrolling('servers');
    });

    const signInAs = async (name) => {
        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.locator('#signin-username').waitFor();
        await page.fill('#signin-username', name);
        await page.fill('#signin-password', `password-${name}`);
        await page.keyboard.press('Enter');
        await page.locator('#health-overall').waitFor();
    };
    await step('user-shared-server-managed-by-admins', async () => {
        // a user of the default tenant sees the shared server, but only admins change it
        await page.setViewportSize(LAPTOP);
        await signInAs(args.user);
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'MCP servers', exact: true }).click();
        const card = page.locator(`[data-server-name="${serverName}"]`);
        await card.waitFor();
        check((await card.locator('.badges').textContent()).includes('Shared with tenant'), 'the card says it is shared');
        check(await card.getByText('Managed by admins').isVisible(), 'the card says who manages it');
        check(await card.getByRole('button', { name: `Edit ${serverName}` }).count() === 0
            && await card.getByRole('button', { name: `Delete ${serverName}` }).count() === 0, 'no edit or delete for a user');
    });

    await step('user-shared-server-tools-read-only', async () => {
        await page.locator(`[data-server-name="${serverName}"]`).getByRole('link', { name: 'Tools' }).click();
        await page.locator('#tool-table').waitFor();
        check((await page.textContent('#tools-managed')).includes('Managed by admins'), 'the page says why nothing can be changed');
        const echo = page.getByRole('switch', { name: 'Auto-approve echo', exact: true });
        check(await echo.isChecked() && await echo.isDisabled(), 'the switches show the admin\u2019s settings and cannot be flipped');
        check(await page.locator('#tool-table input[role=switch]:not([disabled])').count() === 0, 'every switch is read-only');
    });

    await step('tenant-admin-refused-in-words', async () => {
        // an admin of another tenant reads its own tenant only: the API's tenant_forbidden, next to the filter
        await signInAs(args['tenant-admin']);
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Gateway', exact: true }).click();
        await page.locator('#gateway-session-table:not([aria-busy])').waitFor();
        expectHttpError(403);
        await page.fill('#session-tenant', 'default');
        await page.keyboard.press('Enter');
        const alert = page.locator('#session-error .alert');
        await alert.waitFor();
        const text = await alert.textContent();
        check(text.includes('Could not load the gateway sessions') && text.includes(`An administrator of tenant ${args['tenant-admin']}-tenant can only read that tenant's gateway sessions`),
            `the refusal in words: ${text}`);
        check(await page.evaluate(() => document.activeElement.id) === 'session-tenant', 'focus goes to the tenant filter');
        check(await page.locator('#gateway-session-table tbody tr').count() === 0 && (await page.textContent('#session-count')) === '',
            'no rows of the admin\u2019s own tenant pass for the default tenant\u2019s');
        await page.locator('#gateway-sessions').scrollIntoViewIfNeeded();
    });

    await step('tenant-admin-audit-refused-in-words', async () => {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit', exact: true }).click();
        await page.locator('#audit-table:not([aria-busy])').waitFor();
        expectHttpError(403);
        await page.fill('#audit-tenant', 'default');
        await page.click('#audit-apply');
        const alert = page.locator('#audit-error .alert');
        await alert.waitFor();
        check((await alert.textContent()).includes("can only read that tenant's audit trail"), `the refusal in words: ${await alert.textContent()}`);
        check(await page.evaluate(() => document.activeElement.id) === 'audit-tenant', 'focus goes to the tenant filter');
    });

    await step('tenant-admin-chain-broken', async () => {
        // the IT changed the second of this tenant's two events in the database: verification says where
        await page.click('#audit-clear');
        await page.locator('#audit-table:not([aria-busy])').waitFor();
        check(await page.locator('#audit-table tbody tr[data-audit-id]').count() === 2, 'the tenant\u2019s own two events are listed');
        await page.getByRole('button', { name: 'Verify chain' }).click();
        const broken = page.locator('#audit-verify .result.fail[data-valid="false"]');
        await broken.waitFor();
        const text = await broken.textContent();
        check(text.includes(`Chain broken for tenant ${args['tenant-admin']}-tenant at event 2`) && text.includes('Event 2 was changed after it was written. 1 event before the break checked out'),
            `the break in words: ${text}`);
        check(await broken.getAttribute('role') === 'alert', 'the break is announced');
    });
} catch (err) {
    console.error(String(err && err.stack || err));
    console.log('RESULT ' + JSON.stringify({ ...result, failed: true }));
    await browser.close();
    process.exit(1);
}

await browser.close();
console.log('RESULT ' + JSON.stringify(result));
