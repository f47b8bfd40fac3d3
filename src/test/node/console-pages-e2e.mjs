#!/usr/bin/env node
// The overview, chat playground and gateway pages walked through in Debian's Chromium (driven by ConsoleChatBrowserIT,
// which registers a shared stdio server-everything with echo auto-approved, an assistant using it, and scripts the
// LLM provider: the first message is answered with a call to its echo tool, then a text).
//
//   node console-pages-e2e.mjs --base-url http://localhost:18381 --password ... --server-name gw-abc123
//        --assistant-name "Chat helper abc123" --key script-1-234 --pending-key script-2-567 --slow-key script-3-890
//        --node-modules target/node/node_modules --out target/console-screenshots
//
// Screenshots are pages-NN-step.png in --out; any browser console or page error fails the run. The last line
// printed is RESULT {json} for the IT to check through the REST API.
import { check, parseArgs, startBrowser } from './console-harness.mjs';

const args = parseArgs(['base-url', 'password', 'server-name', 'assistant-name', 'key', 'pending-key', 'slow-key', 'node-modules', 'out']);
const browser = await startBrowser({ baseUrl: args['base-url'], nodeModules: args['node-modules'], out: args.out, prefix: 'pages-' });
const { BASE, page, shots, step, rest, expectHttpError } = browser;
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

    await step('chat-pending-call', async () => {
        await page.click('#new-chat');
        await page.getByRole('heading', { name: 'Start a conversation' }).waitFor();
        await page.fill('#chat-input', `Add two and three. ${args['pending-key']}`);
        await page.keyboard.press('Enter');
        const block = page.locator('.tool-block[data-tool="get-sum"][data-status="pending"]');
        await block.waitFor({ timeout: 60_000 });
        await block.getByRole('button', { name: 'Approve' }).waitFor();
        await block.getByRole('button', { name: 'Reject' }).waitFor();
        check((await block.locator('.tc-status').textContent()).includes('Waiting for approval'), 'pending in words');
    });

    await step('chat-rejected', async () => {
        // approvals may not be deployed yet: then the console says so in words (HTTP 404), otherwise the call is cancelled
        expectHttpError(404);
        const block = page.locator('.tool-block[data-tool="get-sum"]');
        await block.getByRole('button', { name: 'Reject' }).click();
        await Promise.race([
            block.locator('.alert').filter({ hasText: 'Approvals are not available on this Switchboard yet' }).waitFor(),
            page.locator('.tool-block[data-tool="get-sum"][data-status="cancelled"]').waitFor(),
        ]);
        result.approvals = await block.locator('.alert').count() ? 'missing' : 'present';
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
        const row = page.locator(`#gateway-tool-table tr[data-public-name="${serverName}__echo"]`);
        await row.waitFor({ timeout: 60_000 });
        await page.locator(`.backend-card[data-backend-name="${serverName}"]`).waitFor();
        check((await page.textContent('#gateway-session')).includes('protocol'), 'the MCP session facts are shown');
        result.gatewayTools = await page.locator('#gateway-tool-table tbody tr').count();
        await page.fill('#gateway-tool-search', `${serverName}__echo`);
        check(await page.locator('#gateway-tool-table tbody tr:not([hidden])').count() === 1, 'the filter finds the tool by public name');
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
        await page.setViewportSize({ width: 1366, height: 800 });
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
} catch (err) {
    console.error(String(err && err.stack || err));
    console.log('RESULT ' + JSON.stringify({ ...result, failed: true }));
    await browser.close();
    process.exit(1);
}

await browser.close();
console.log('RESULT ' + JSON.stringify(result));
