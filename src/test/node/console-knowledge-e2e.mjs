#!/usr/bin/env node
// The knowledge base page walked through in Debian's Chromium (driven by ConsoleKnowledgeBrowserIT, which makes a
// tenant of its own with an admin and a user, both with the password "password-" + their name, and the files the
// browser uploads): an unsupported file refused in words next to the field, a Word document uploaded, its text
// shown, a question that finds it, its file downloaded, a PDF replacing it (revision 2), the page read-only for the
// user, on a phone screen, and the document deleted by the admin.
//
//   node console-knowledge-e2e.mjs --base-url http://localhost:18381 --password ... --tenant-admin kd-abc-admin
//        --tenant-user kd-abc-user --docx /abs/handbook.docx --pdf /abs/handbook-v2.pdf --png /abs/photo.png --word zanthorp
//        --node-modules target/node/node_modules --out target/console-screenshots
//
// Screenshots are knowledge-NN-step.png in --out; the last line printed is RESULT {json} for the IT.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { check, LAPTOP, parseArgs, startBrowser } from './console-harness.mjs';

const args = parseArgs(['base-url', 'password', 'tenant-admin', 'tenant-user', 'docx', 'pdf', 'png', 'word', 'node-modules', 'out']);
const browser = await startBrowser({ baseUrl: args['base-url'], nodeModules: args['node-modules'], out: args.out, prefix: 'knowledge-' });
const { BASE, page, shots, step, expectHttpError } = browser;
const result = { screenshots: shots };
const nav = () => page.getByRole('navigation', { name: 'Main' });

async function signIn(name) {
    await page.goto(BASE + '/#/signin');
    await page.locator('#signin-username').waitFor();
    await page.fill('#signin-username', name);
    await page.fill('#signin-password', `password-${name}`);
    await page.keyboard.press('Enter');
    await page.locator('#health-overall').waitFor();
    await nav().getByRole('link', { name: 'Knowledge', exact: true }).click();
    await page.getByRole('heading', { name: 'Knowledge base', level: 1 }).waitFor();
}

async function signOut() {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.locator('#signin-username').waitFor();
}

try {
    await step('empty-knowledge-base', async () => {
        await signIn(args['tenant-admin']);
        await page.getByRole('heading', { name: 'No documents yet' }).waitFor();
        check(await page.title() === 'Knowledge base · Switchboard', `title: ${await page.title()}`);
    });

    await step('unsupported-file-refused-in-words', async () => {
        await page.setInputFiles('#document-file', args.png);
        expectHttpError(415);
        await page.click('#document-upload');
        const error = page.locator('#document-file-error');
        await error.waitFor();
        check(await error.getAttribute('data-code') === 'unsupported_file_type', `code: ${await error.getAttribute('data-code')}`);
        const text = await error.textContent();
        check(text.startsWith("'photo.png' is image/png, which the knowledge base cannot read"), `refusal in words: ${text}`);
        check(await page.evaluate(() => document.activeElement.id) === 'document-file', 'focus goes back to the file');
        await page.getByRole('heading', { name: 'No documents yet' }).waitFor();
    });

    await step('word-document-uploaded', async () => {
        await page.setInputFiles('#document-file', args.docx);
        await page.click('#document-upload');
        const row = page.locator('tr[data-name="handbook.docx"]');
        await row.waitFor();
        check(await row.getAttribute('data-revision') === '1', 'a new document is revision 1');
        check(await page.locator('#document-file-error').isHidden(), 'the earlier refusal is gone');
        check((await row.textContent()).includes('application/vnd.openxmlformats-officedocument.wordprocessingml.document'), 'the type is shown');
        result.documentId = Number(await row.getAttribute('data-document-id'));
    });

    await step('document-text', async () => {
        await page.getByRole('button', { name: 'Text of handbook.docx' }).click();
        const text = page.locator('dialog[open] #document-text');
        await text.waitFor();
        check((await text.textContent()).includes(`Before every release of ${args.word} the on-call engineer rotates the signing keys`),
            'the extracted text is shown');
        await page.keyboard.press('Escape');
        await page.locator('dialog[open]').waitFor({ state: 'detached' });
    });

    await step('question-finds-the-document', async () => {
        await page.fill('#knowledge-question', `What happens before a release of ${args.word}?`);
        await page.click('#knowledge-search');
        const found = page.locator('.knowledge-hit[data-source="handbook.docx"]');
        await found.waitFor();
        check((await found.locator('pre').textContent()).includes('rotates the signing keys'), 'the passage is shown');
    });

    await step('document-downloaded', async () => {
        const [download] = await Promise.all([
            page.waitForEvent('download'),
            page.getByRole('button', { name: 'Download handbook.docx' }).click(),
        ]);
        check(download.suggestedFilename() === 'handbook.docx', `file name: ${download.suggestedFilename()}`);
        const saved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-download-')), 'handbook.docx');
        await download.saveAs(saved);
        check(Buffer.compare(fs.readFileSync(saved), fs.readFileSync(args.docx)) === 0, 'the download is the uploaded file');
        fs.rmSync(path.dirname(saved), { recursive: true, force: true });
    });

    await step('replaced-by-a-pdf', async () => {
        await page.setInputFiles('input[aria-label="New file for handbook.docx"]', args.pdf);
        const row = page.locator('tr[data-name="handbook-v2.pdf"]');
        await row.waitFor();
        check(await row.getAttribute('data-revision') === '2', 'the replacement is revision 2');
        check(Number(await row.getAttribute('data-document-id')) === result.documentId, 'the same document');
        check(await page.locator('tr[data-name="handbook.docx"]').count() === 0, 'the old name is gone');
    });

    await step('user-reads-only', async () => {
        await signOut();
        await signIn(args['tenant-user']);
        await page.locator('#documents-managed-by-admins').waitFor();
        await page.locator('tr[data-name="handbook-v2.pdf"]').waitFor();
        check(await page.locator('#document-file').count() === 0, 'no upload for a user');
        check(await page.getByRole('button', { name: 'Delete handbook-v2.pdf' }).count() === 0, 'no delete for a user');
        check(await page.getByRole('button', { name: 'Replace handbook-v2.pdf' }).count() === 0, 'no replace for a user');
        await page.getByRole('button', { name: 'Text of handbook-v2.pdf' }).click();
        await page.locator('dialog[open] #document-text').getByText('freezes the main branch').waitFor();
        await page.keyboard.press('Escape');
        await page.locator('dialog[open]').waitFor({ state: 'detached' });
    });

    await step('phone-screen', async () => {
        await page.setViewportSize({ width: 390, height: 800 });
        await page.locator('tr[data-name="handbook-v2.pdf"]').waitFor();
        await page.fill('#knowledge-question', `release of ${args.word}`);
        await page.click('#knowledge-search');
        await page.locator('.knowledge-hit[data-source="handbook-v2.pdf"]').waitFor();
    });

    await step('admin-deletes-the-document', async () => {
        await page.setViewportSize(LAPTOP);
        await signOut();
        await signIn(args['tenant-admin']);
        await page.getByRole('button', { name: 'Delete handbook-v2.pdf' }).click();
        await page.locator('dialog[open]').getByRole('button', { name: 'Delete' }).click();
        await page.getByRole('heading', { name: 'No documents yet' }).waitFor();
        await page.fill('#knowledge-question', `release of ${args.word}`);
        await page.click('#knowledge-search');
        // the knowledge folder other tests fill may answer something; the deleted document never
        await page.locator('#knowledge-results > *').first().waitFor();
        check(await page.locator('.knowledge-hit[data-source="handbook-v2.pdf"]').count() === 0, 'the deleted document is not found');
    });
} catch (err) {
    console.error(String(err && err.stack || err));
    console.log('RESULT ' + JSON.stringify({ ...result, failed: true }));
    await browser.close();
    process.exit(1);
}

await browser.close();
console.log('RESULT ' + JSON.stringify(result));
