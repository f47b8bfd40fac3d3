// The tenant's knowledge base: its documents (GET /api/knowledge/documents, paged with the API's cursor), uploaded,
// replaced and deleted by admins (multipart/form-data, one part named "file"), their extracted text and their files
// for everyone of the tenant, and a retrieval check (GET /api/knowledge/search): what an assistant with the
// knowledge base switched on would be given for a question. Refusals (unsupported type, too large, no text, a name
// taken) are the API's own words, shown where the file was chosen.
import { api, fetchBody } from '../api.js';
import { alertBox, busy, button, confirmDialog, describeError, formatDate, h, icon, openModal, plural, relativeTime, toast } from '../ui.js';

const PAGE_SIZE = 20;
const PREVIEW_CHARS = 20_000;
const ACCEPT = '.txt,.md,.markdown,.csv,.pdf,.docx,.doc,.xlsx,.xls,.pptx,.ppt,.odt,.ods,.odp,.rtf,.html,.htm';
const FORMATS = 'text and Markdown, PDF, Word, Excel, PowerPoint, OpenDocument, RTF and HTML';

export async function render(main, ctx) {
    const body = h('tbody');
    const table = h('table', { class: 'data', id: 'document-table' },
        h('caption', { class: 'sr-only' }, 'Knowledge documents of your tenant, newest first'),
        h('thead', {}, h('tr', {}, ['Document', 'Size', 'Revision', 'Updated', 'Actions']
            .map(c => h('th', { scope: 'col', class: c === 'Actions' ? 'num' : null }, c)))),
        body);
    const listError = h('div', { id: 'document-error' });
    const count = h('span', { class: 'count', id: 'document-count', 'aria-live': 'polite' });
    const prev = button('Previous', { size: 'sm', id: 'document-prev', onClick: () => { cursors.pop(); load(); } });
    const next = button('Next', { size: 'sm', id: 'document-next', onClick: () => { cursors.push(nextCursor); load(); } });
    const pager = h('div', { class: 'pager', role: 'group', 'aria-label': 'Pages of documents', hidden: true }, prev, next);

    main.append(h('div', { class: 'page page-wide' },
        h('header', { class: 'page-head' },
            h('div', {}, h('h1', {}, 'Knowledge base'),
                h('p', {}, `The documents of tenant ${ctx.me.tenant}. Assistants with the knowledge base switched on are given the passages that answer the question best, with their source; so is the knowledge tool of the built-in server.`))),
        ctx.isAdmin ? uploadSection(() => restart()) : h('div', { class: 'alert info', id: 'documents-managed-by-admins', role: 'note' }, icon('info'),
            h('div', {}, h('strong', {}, 'Documents are managed by admins.'), h('span', {}, 'You can read them and check what a question finds.'))),
        h('section', { class: 'card section', 'aria-labelledby': 'documents-heading' },
            h('div', { class: 'section-head' }, h('div', {}, h('h2', { id: 'documents-heading' }, 'Documents'),
                h('p', {}, 'Replacing a document keeps its place and makes a new revision; deleting it takes its passages out of every answer at once.')), count),
            listError,
            h('div', { class: 'table-wrap' }, table),
            pager),
        searchSection()));

    // cursors[i] opens page i (null: the first page); nextCursor is what the API gave for the page after this one
    let cursors = [null];
    let nextCursor = null;
    await load();

    function restart() {
        cursors = [null];
        return load();
    }

    async function load() {
        const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
        const cursor = cursors[cursors.length - 1];
        if (cursor) params.set('cursor', cursor);
        table.setAttribute('aria-busy', 'true');
        try {
            const page = await api.get(`/knowledge/documents?${params}`);
            // the last document of a page was deleted: show the page before it
            if (!page.data.length && cursors.length > 1) { cursors.pop(); return load(); }
            listError.replaceChildren();
            nextCursor = page.nextCursor || null;
            draw(page.data);
        } catch (err) {
            listError.replaceChildren(h('div', { class: 'section-body' }, alertBox(err, 'Could not load the documents')));
        } finally {
            table.removeAttribute('aria-busy');
        }
    }

    function draw(documents) {
        const pageNo = cursors.length;
        prev.disabled = pageNo === 1;
        next.disabled = !nextCursor;
        pager.hidden = pageNo === 1 && !nextCursor;
        count.textContent = documents.length ? `${plural(documents.length, 'document')}${pageNo > 1 || nextCursor ? ` on page ${pageNo}` : ''}` : '';
        if (!documents.length) {
            body.replaceChildren(h('tr', {}, h('td', { colspan: 5 }, h('div', { class: 'empty', style: 'padding:28px' },
                h('h2', {}, 'No documents yet'),
                h('p', {}, ctx.isAdmin ? `Upload a document above (${FORMATS}): its text is searched for every question.`
                    : 'An admin of your tenant can upload documents here.')))));
            return;
        }
        body.replaceChildren(...documents.map(row));
    }

    function row(d) {
        const replaceInput = h('input', { type: 'file', accept: ACCEPT, hidden: true, 'aria-label': `New file for ${d.name}`,
            onchange: () => replace(d, replaceInput) });
        return h('tr', { dataset: { documentId: d.id, name: d.name, revision: d.revision } },
            h('td', {}, h('div', { class: 'tool-name' }, d.name),
                h('div', { class: 'tool-display' }, `${d.mediaType} · ${plural(d.textChars, 'character')} of text`)),
            h('td', { class: 'nowrap' }, size(d.sizeBytes)),
            h('td', {}, String(d.revision)),
            h('td', { class: 'nowrap', title: `${formatDate(d.updatedAt)} by ${d.updatedBy}` }, relativeTime(d.updatedAt),
                h('div', { class: 'tool-display' }, d.updatedBy)),
            h('td', { class: 'num' }, h('div', { class: 'row-actions' },
                button('Text', { size: 'sm', iconName: 'file', 'aria-label': `Text of ${d.name}`, onClick: () => showText(d) }),
                button('', { kind: 'ghost', size: 'sm', iconName: 'download', class: 'btn btn-ghost btn-icon', 'aria-label': `Download ${d.name}`,
                    title: 'Download', onClick: (e) => download(d, e.currentTarget) }),
                ctx.isAdmin ? [replaceInput,
                    button('', { kind: 'ghost', size: 'sm', iconName: 'upload', class: 'btn btn-ghost btn-icon', 'aria-label': `Replace ${d.name}`,
                        title: 'Replace with a new file', onClick: () => replaceInput.click() }),
                    button('', { kind: 'ghost', size: 'sm', iconName: 'trash', class: 'btn btn-ghost btn-icon', 'aria-label': `Delete ${d.name}`,
                        title: 'Delete', onClick: () => remove(d) })] : null)));
    }

    async function replace(d, input) {
        const file = input.files[0];
        input.value = '';
        if (!file) return;
        try {
            const saved = await api.upload('PUT', `/knowledge/documents/${d.id}`, file);
            toast(`${d.name} replaced by ${saved.name} (revision ${saved.revision})`);
            await load();
        } catch (err) {
            listError.replaceChildren(h('div', { class: 'section-body' }, h('div', { id: 'replace-error', dataset: { code: err.code || '' } },
                alertBox(err, `${d.name} was not replaced`))));
        }
    }

    async function remove(d) {
        if (!await confirmDialog({ title: `Delete ${d.name}?`, message: 'Its passages leave the knowledge base at once. This cannot be undone.' })) return;
        try {
            await api.del(`/knowledge/documents/${d.id}`);
            toast(`Deleted ${d.name}`);
            await load();
        } catch (err) {
            toast(`Could not delete ${d.name}: ${describeError(err).headline}`, 'error');
        }
    }
}

/** The admins' upload form: one file, its refusal next to it in the API's words. */
function uploadSection(uploaded) {
    const input = h('input', { type: 'file', id: 'document-file', accept: ACCEPT, 'aria-describedby': 'document-file-hint document-file-error' });
    const error = h('div', { class: 'field-error', id: 'document-file-error', hidden: true });
    const submit = h('button', { type: 'submit', class: 'btn btn-primary', id: 'document-upload' }, icon('upload'), 'Upload');
    async function upload(e) {
        e.preventDefault();
        error.hidden = true;
        input.parentElement.classList.remove('invalid');
        const file = input.files[0];
        if (!file) {
            fail({ message: 'Choose a file to upload first.' });
            return;
        }
        try {
            const created = await busy(submit, api.upload('POST', '/knowledge/documents', file), 'Reading…');
            input.value = '';
            toast(`${created.name} added: ${plural(created.textChars, 'character')} of text`);
            await uploaded();
        } catch (err) {
            fail(err);
        }
    }
    function fail(err) {
        input.parentElement.classList.add('invalid');
        error.textContent = describeError(err).headline;
        error.dataset.code = err.code || '';
        error.hidden = false;
        input.focus();
    }
    return h('section', { class: 'card section', 'aria-labelledby': 'upload-heading' },
        h('div', { class: 'section-head' }, h('div', {}, h('h2', { id: 'upload-heading' }, 'Add a document'),
            h('p', {}, 'Its text is read and searchable as soon as the upload finishes.'))),
        h('div', { class: 'section-body' }, h('form', { class: 'inline-form', novalidate: true, onsubmit: upload },
            h('div', { class: 'field' }, h('label', { for: 'document-file' }, 'File'), input,
                h('div', { class: 'hint', id: 'document-file-hint' }, `Accepted: ${FORMATS}. Scanned pages without a text layer cannot be searched.`), error),
            submit)));
}

/** What retrieval finds for a question, as the chat run would inject it. */
function searchSection() {
    const question = h('input', { type: 'search', id: 'knowledge-question', placeholder: 'e.g. What happens before a release?',
        'aria-label': 'Question to search the knowledge base for', autocomplete: 'off' });
    const results = h('div', { id: 'knowledge-results', 'aria-live': 'polite' });
    const submit = h('button', { type: 'submit', class: 'btn', id: 'knowledge-search' }, icon('search'), 'Search');
    async function search(e) {
        e.preventDefault();
        const q = question.value.trim();
        if (!q) { question.focus(); return; }
        try {
            const found = await busy(submit, api.get(`/knowledge/search?q=${encodeURIComponent(q)}&limit=5`), 'Searching…');
            results.replaceChildren(found.data.length ? h('ol', { class: 'list knowledge-hits' }, found.data.map(hit))
                : h('p', { class: 'muted', id: 'knowledge-nothing' }, 'Nothing relevant: an assistant would get no context for this question.'));
        } catch (err) {
            results.replaceChildren(alertBox(err, 'The search failed'));
        }
    }
    return h('section', { class: 'card section', 'aria-labelledby': 'search-heading' },
        h('div', { class: 'section-head' }, h('div', {}, h('h2', { id: 'search-heading' }, 'Check a question'),
            h('p', {}, 'The passages of your documents and of the server\u2019s knowledge folder an assistant would be given, best first.'))),
        h('div', { class: 'section-body' }, h('form', { class: 'inline-form', onsubmit: search },
            h('div', { class: 'field' }, question), submit), results));
}

function hit(found) {
    return h('li', { class: 'knowledge-hit', dataset: { source: found.source } },
        h('div', { class: 'tool-name' }, found.source,
            h('span', { class: 'muted' }, ` lines ${found.lines.start}\u2013${found.lines.end} \u00b7 relevance ${found.score.toFixed(2)}`),
            found.documentId ? null : h('span', { class: 'badge', style: 'margin-left:6px' }, 'knowledge folder')),
        h('pre', { class: 'knowledge-snippet' }, found.snippet));
}

async function showText(d) {
    let text;
    try {
        text = await fetchBody(`/knowledge/documents/${d.id}/text`, 'text');
    } catch (err) {
        toast(`Could not read ${d.name}: ${describeError(err).headline}`, 'error');
        return;
    }
    const cut = text.length > PREVIEW_CHARS;
    openModal({
        title: d.name, subtitle: `The text that is searched: ${plural(d.textChars, 'character')}${cut ? `, the first ${PREVIEW_CHARS.toLocaleString()} shown` : ''}.`,
        build: (dialog, head) => [head,
            h('div', { class: 'modal-body' }, h('pre', { class: 'knowledge-text', id: 'document-text', tabindex: '0' }, cut ? text.slice(0, PREVIEW_CHARS) : text)),
            h('div', { class: 'modal-foot' }, button('Close', { onClick: () => dialog.close() }))],
    });
}

async function download(d, btn) {
    let blob;
    try {
        blob = await busy(btn, fetchBody(`/knowledge/documents/${d.id}/content`, 'blob'));
    } catch (err) {
        toast(`Could not download ${d.name}: ${describeError(err).headline}`, 'error');
        return;
    }
    const url = URL.createObjectURL(blob);
    const link = h('a', { href: url, download: d.name, hidden: true }, d.name);
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function size(bytes) {
    if (bytes < 1024) return plural(bytes, 'byte');
    if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
    return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
