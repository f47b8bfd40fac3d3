#!/usr/bin/env node
// The chat page in two tabs of Debian's Chromium (driven by ConsoleChatWatchBrowserIT, which shares a stdio
// server-everything whose get-sum is not auto-approved, makes an assistant using it, and scripts the LLM: a greeting,
// then a get-sum call and its answer, twice). The first tab starts a conversation and the second opens it; a call
// the first tab's run makes waits for approval and shows up in the second tab without a reload, where it is approved;
// then a call is approved in the first tab and the second sees it run and finish. Both tabs are signed in as admin.
//
//   node console-chat-watch-e2e.mjs --base-url http://localhost:18380 --password ... --assistant-name "Watched abc"
//        --key script-1-234 --node-modules target/node/node_modules --out target/console-screenshots
//
// Screenshots are watch-NN-step.png (the first tab) and watch-NN-step.tab2.png (the second) in --out; any browser console
// or page error in either tab fails the run. The last line printed is RESULT {json} for the IT to check.
import path from 'node:path';
import { check, parseArgs, startBrowser } from './console-harness.mjs';

const args = parseArgs(['base-url', 'password', 'assistant-name', 'key', 'node-modules', 'out']);
const browser = await startBrowser({ baseUrl: args['base-url'], nodeModules: args['node-modules'], out: args.out, prefix: 'watch-' });
const { BASE, page: first, shots, step, toolCallStatuses } = browser;
const result = { screenshots: shots };
const secondProblems = [];
let second;

async function signIn(tab) {
    await tab.goto(BASE + '/');
    await tab.locator('#signin-username').waitFor();
    await tab.fill('#signin-username', 'admin');
    await tab.fill('#signin-password', args.password);
    await tab.keyboard.press('Enter');
    await tab.locator('#health-overall').waitFor();
}

/** The second tab's picture beside the first's, and its own errors. */
async function secondTab(name) {
    const file = path.join(path.resolve(args.out), `watch-${String(shots.length + 1).padStart(2, '0')}-${name}.tab2.png`);
    await second.screenshot({ path: file });
    check(secondProblems.length === 0, secondProblems.join('\n'));
}

/** The statuses a tool-call block of the second tab went through, in order. */
function secondStatuses(toolCallId) {
    return second.evaluate(id => (window.__toolCallStatuses || {})[id] || [], toolCallId);
}

try {
    await step('conversation-started-in-first-tab', async () => {
        await signIn(first);
        await first.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Chat', exact: true }).click();
        await first.getByRole('heading', { name: 'Start a conversation' }).waitFor();
        await first.getByLabel('Assistant').selectOption({ label: args['assistant-name'] });
        await first.fill('#chat-input', `Hello. ${args.key}`);
        await first.keyboard.press('Enter');
        await first.locator('.msg-assistant .msg-text').filter({ hasText: 'Ready when you are.' }).waitFor({ timeout: 60_000 });
        await first.waitForFunction(() => /^#\/chat\/\d+$/.test(location.hash));
        result.conversationId = Number((await first.evaluate(() => location.hash)).split('/').pop());
    });

    await step('conversation-open-in-second-tab', async () => {
        second = await first.context().newPage();
        second.on('pageerror', err => secondProblems.push(`second tab page error: ${err.message}`));
        second.on('console', msg => { if (msg.type() === 'error') secondProblems.push(`second tab console error: ${msg.text()}`); });
        await signIn(second);
        await second.goto(`${BASE}/#/chat/${result.conversationId}`);
        await second.locator('.msg-assistant .msg-text').filter({ hasText: 'Ready when you are.' }).waitFor();
        // a page that is loaded again loses this mark: the next steps check that the second tab never reloads
        await second.evaluate(() => { window.__sameDocument = true; });
        await secondTab('conversation-open');
    });

    // get-sum waits for approval (at most switchboard.chat.approval-timeout, 4 s on the IT server): the second tab
    // decides in the step that sees the call pending
    await step('pending-call-approved-in-second-tab', async () => {
        await first.bringToFront();
        await first.fill('#chat-input', `Add 2 and 3. ${args.key}`);
        await first.keyboard.press('Enter');
        const waiting = second.locator('.tool-block[data-tool="get-sum"][data-tool-call-id="call-watch-1"][data-status="pending"]');
        await waiting.waitFor({ timeout: 60_000 });
        check((await waiting.locator('.tc-status').textContent()).includes('Waiting for approval'), 'the second tab shows the call waiting');
        check(await second.evaluate(() => window.__sameDocument === true), 'the second tab was not reloaded');
        await waiting.getByRole('button', { name: 'Approve get-sum', exact: true }).click();
        const doneFirst = first.locator('.tool-block[data-tool-call-id="call-watch-1"][data-status="done"]');
        await doneFirst.waitFor();
        await first.locator('.msg-assistant .msg-text').filter({ hasText: 'Approved in the other tab: 5.' }).waitFor();
        await first.locator('#chat-send:not([hidden])').waitFor();
        await second.locator('.tool-block[data-tool-call-id="call-watch-1"][data-status="done"]').waitFor();
        check(await second.locator('.tool-block[data-tool-call-id="call-watch-1"]').getByRole('button', { name: 'Approve get-sum' }).isHidden(),
            'the decision buttons are gone in the second tab');
        check(await first.locator('.tool-block[data-tool-call-id="call-watch-1"]').getByRole('button', { name: 'Approve get-sum' }).isHidden(),
            'and in the first');
        result.approvedInSecondTab = Number(await doneFirst.getAttribute('data-message-id'));
        const seenFirst = await toolCallStatuses('call-watch-1');
        check(JSON.stringify(seenFirst) === JSON.stringify(['pending', 'invoking', 'done']), `the first tab saw pending, invoking, done: ${seenFirst}`);
        const seenSecond = await secondStatuses('call-watch-1');
        check(JSON.stringify(seenSecond) === JSON.stringify(['pending', 'invoking', 'done']), `the second tab saw pending, invoking, done: ${seenSecond}`);
        await secondTab('approved-here');
    });

    await step('call-approved-in-first-tab-seen-in-second', async () => {
        await first.fill('#chat-input', `Add 4 and 5. ${args.key}`);
        await first.keyboard.press('Enter');
        const waiting = first.locator('.tool-block[data-tool-call-id="call-watch-2"][data-status="pending"]');
        await waiting.waitFor({ timeout: 60_000 });
        await second.locator('.tool-block[data-tool-call-id="call-watch-2"][data-status="pending"]').waitFor();
        await waiting.getByRole('button', { name: 'Approve get-sum', exact: true }).click();
        await first.locator('.msg-assistant .msg-text').filter({ hasText: 'Approved here: 9.' }).waitFor();
        const doneSecond = second.locator('.tool-block[data-tool-call-id="call-watch-2"][data-status="done"]');
        await doneSecond.waitFor();
        check(await second.evaluate(() => window.__sameDocument === true), 'the second tab was not reloaded');
        await doneSecond.getByText('Result', { exact: true }).click();
        check((await doneSecond.locator('.tc-result').textContent()).includes('The sum of 4 and 5 is 9'), 'the second tab shows the result');
        const seenSecond = await secondStatuses('call-watch-2');
        check(JSON.stringify(seenSecond) === JSON.stringify(['pending', 'invoking', 'done']), `the second tab saw the call wait, run and finish: ${seenSecond}`);
        result.approvedInFirstTab = Number(await doneSecond.getAttribute('data-message-id'));
        await secondTab('seen-here');
    });
    console.log('RESULT ' + JSON.stringify(result));
} finally {
    await browser.close();
}
