// Query (NL->SQL): ask the query database a question in plain language, see the SQL the model wrote (as the guard
// will run it), its explanation and the rows, download them as CSV; a schema browser finds tables and columns by
// their names and comments. Everything goes through /api/query with the caller's own permissions.
import { api } from '../api.js';
import { alertBox, button, h, icon, plural, toast } from '../ui.js';

const DEFAULT_LIMIT = 100;
const SEARCH_DELAY_MS = 250;

export async function render(main) {
    const question = h('textarea', { id: 'query-question', rows: 3, maxlength: 2000, placeholder: 'e.g. Which users placed the most orders last month?  (Enter asks, Shift+Enter adds a line)', 'aria-describedby': 'query-hint' });
    const limit = h('input', { type: 'number', id: 'query-limit', min: 1, max: 1000, value: DEFAULT_LIMIT, inputmode: 'numeric' });
    const askBtn = h('button', { type: 'submit', class: 'btn btn-primary', id: 'query-ask' }, icon('send'), 'Ask');
    const output = h('div', { id: 'query-output', 'aria-live': 'polite' });
    const form = h('form', { class: 'section-body query-form', novalidate: true, onsubmit: (e) => { e.preventDefault(); ask(); } },
        h('div', { class: 'field' }, h('label', { for: 'query-question' }, 'Question'), question,
            h('span', { class: 'hint', id: 'query-hint' }, 'The model writes one SELECT over the tables you may read; it is checked and run read-only.')),
        h('div', { class: 'query-form-row' },
            h('div', { class: 'field inline' }, h('label', { for: 'query-limit' }, 'Rows at most'), limit),
            askBtn));

    const search = h('input', { type: 'search', id: 'schema-search', placeholder: 'Search tables and columns…', autocomplete: 'off', spellcheck: 'false', 'aria-controls': 'schema-results' });
    const schemaResults = h('div', { id: 'schema-results', 'aria-live': 'polite' });

    main.append(h('div', { class: 'page page-wide' },
        h('header', { class: 'page-head' },
            h('div', {}, h('h1', {}, 'Query'), h('p', {}, 'Ask the query database in plain language and see the SQL, the explanation and the rows.'))),
        h('div', { class: 'query-layout' },
            h('div', { class: 'query-main' },
                h('section', { class: 'card section', 'aria-label': 'Ask a question' }, form),
                output),
            h('aside', { class: 'card schema-panel', 'aria-labelledby': 'schema-heading' },
                h('div', { class: 'section-head' }, h('div', {}, h('h2', { id: 'schema-heading' }, 'Schema'),
                    h('p', {}, 'Tables you may read, and what their comments say.'))),
                h('div', { class: 'section-body' },
                    h('label', { class: 'sr-only', for: 'schema-search' }, 'Search the schema'), search, schemaResults)))));

    question.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); form.requestSubmit(); }
    });
    let searchTimer = null;
    let searchNo = 0;
    search.addEventListener('input', () => {
        clearTimeout(searchTimer);
        searchTimer = setTimeout(() => findInSchema(search.value.trim()), SEARCH_DELAY_MS);
    });

    question.focus();
    await listTables();

    async function ask() {
        const text = question.value.trim();
        if (!text) {
            output.replaceChildren(h('div', { class: 'alert', role: 'alert' }, icon('alert'), h('div', {}, h('strong', {}, 'Type a question first.'),
                h('span', {}, 'Ask about the data in words, for example \u201chow many orders does each user have?\u201d'))));
            question.focus();
            return;
        }
        const rows = Number(limit.value);
        if (!Number.isInteger(rows) || rows < 1 || rows > 1000) {
            output.replaceChildren(h('div', { class: 'alert', role: 'alert' }, icon('alert'), h('div', {}, h('strong', {}, 'Rows at most must be a whole number from 1 to 1000.'))));
            limit.focus();
            return;
        }
        askBtn.disabled = true;
        askBtn.replaceChildren(h('span', { class: 'spinner', 'aria-hidden': 'true' }), 'Asking…');
        output.replaceChildren(h('div', { class: 'card loading', style: 'padding:24px' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), 'The model is writing SQL for your question…'));
        try {
            const answer = await api.post('/query/execute', { question: text, limit: rows });
            output.replaceChildren(resultView(answer, text));
        } catch (err) {
            output.replaceChildren(failureView(err));
        } finally {
            askBtn.disabled = false;
            askBtn.replaceChildren(icon('send'), 'Ask');
        }
    }

    async function listTables() {
        try {
            const { tables } = await api.get('/query/schema/tables');
            if (search.value.trim()) return; // a search started meanwhile: its results win
            schemaResults.dataset.showing = '';
            schemaResults.replaceChildren(tables.length
                ? h('ul', { class: 'schema-list' }, tables.map(t => tableItem(t.name, t.comment)))
                : h('p', { class: 'hint' }, 'You may not read any table of the query database. Ask an admin for table permissions.'));
        } catch (err) {
            schemaResults.replaceChildren(alertBox(err, 'Could not load the schema'));
        }
    }

    async function findInSchema(phrase) {
        const mine = ++searchNo;
        if (!phrase) { await listTables(); return; }
        try {
            const found = await api.get(`/query/schema/search?q=${encodeURIComponent(phrase)}&limit=10`);
            if (mine !== searchNo) return;
            schemaResults.dataset.showing = phrase; // the phrase the list answers now
            if (!found.tables.length && !found.columns.length) {
                schemaResults.replaceChildren(h('p', { class: 'hint schema-none' }, `Nothing in the schema matches \u201c${phrase}\u201d.`));
                return;
            }
            schemaResults.replaceChildren(
                found.tables.length ? h('h3', { class: 'schema-group' }, 'Tables') : null,
                found.tables.length ? h('ul', { class: 'schema-list' }, found.tables.map(t => tableItem(t.name, t.comment, t.relevance))) : null,
                found.columns.length ? h('h3', { class: 'schema-group' }, 'Columns') : null,
                found.columns.length ? h('ul', { class: 'schema-list' }, found.columns.map(c => h('li', { class: 'schema-column', dataset: { column: `${c.table}.${c.column}` } },
                    h('code', {}, `${c.table}.${c.column}`), relevanceBar(c.relevance), h('span', { class: 'schema-comment' }, c.comment || 'No comment')))) : null);
        } catch (err) {
            if (mine === searchNo) schemaResults.replaceChildren(alertBox(err, 'The schema search failed'));
        }
    }
}

/** A table of the schema browser; its columns load when it is opened. */
function tableItem(name, comment, relevance) {
    const columns = h('div', { class: 'schema-columns' });
    const details = h('details', { class: 'schema-table' },
        h('summary', {}, h('code', {}, name), relevance != null ? relevanceBar(relevance) : null, h('span', { class: 'schema-comment' }, comment || 'No comment')),
        columns);
    let loaded = false;
    details.addEventListener('toggle', async () => {
        if (!details.open || loaded) return;
        loaded = true;
        columns.replaceChildren(h('div', { class: 'hint' }, 'Loading columns…'));
        try {
            const { table } = await api.get(`/query/schema/tables/${encodeURIComponent(name)}`);
            columns.replaceChildren(h('ul', {}, table.columns.map(c => h('li', { dataset: { column: `${name}.${c.name}` } },
                h('code', {}, c.name), h('span', { class: 'schema-type' }, c.type + (c.is_primary_key ? ' · key' : '')),
                h('span', { class: 'schema-comment' }, c.comment || '')))));
        } catch (err) {
            loaded = false;
            columns.replaceChildren(alertBox(err, `Could not describe ${name}`));
        }
    });
    return h('li', { dataset: { table: name } }, details);
}

function relevanceBar(relevance) {
    const percent = Math.round(Math.max(0, Math.min(1, relevance)) * 100);
    return h('span', { class: 'relevance', title: `Relevance ${percent}%`, 'aria-label': `Relevance ${percent}%` }, h('span', { style: `width:${percent}%` }));
}

function resultView(answer, question) {
    const meta = answer.metadata || {};
    const columns = answer.columns || [];
    const rows = answer.data || [];
    const csvBtn = button('Download CSV', { iconName: 'download', size: 'sm', id: 'query-csv', disabled: !columns.length,
        onClick: () => download(toCsv(columns, rows), `query-${new Date().toISOString().replace(/[:.]/g, '-')}.csv`) });
    const copyBtn = button('Copy SQL', { kind: 'ghost', size: 'sm', iconName: 'copy', onClick: async () => {
        try { await navigator.clipboard.writeText(answer.sql); toast('SQL copied'); } catch { toast('Your browser did not allow copying; select the SQL instead.', 'error'); }
    } });
    const facts = h('div', { class: 'query-facts', id: 'query-facts', dataset: { rowCount: meta.row_count, truncated: String(!!meta.truncated) } },
        h('span', {}, plural(meta.row_count ?? rows.length, 'row')),
        meta.execution_time ? h('span', {}, `ran in ${meta.execution_time}`) : null,
        meta.cache_hit ? h('span', {}, 'from the cache') : null,
        meta.truncated ? h('span', { class: 'badge warn' }, 'Truncated: more rows exist, raise \u201cRows at most\u201d to see them') : null);
    const table = columns.length
        ? h('div', { class: 'table-wrap query-table-wrap' }, h('table', { class: 'data', id: 'query-table' },
            h('caption', { class: 'sr-only' }, `Rows answering: ${question}`),
            h('thead', {}, h('tr', {}, columns.map(c => h('th', { scope: 'col' }, c)))),
            h('tbody', {}, rows.map(r => h('tr', {}, columns.map(c => h('td', { class: r[c] === null ? 'null' : null }, cellText(r[c]))))))))
        : h('div', { class: 'empty', style: 'padding:28px' }, h('h2', {}, 'No rows'), h('p', {}, 'The SQL ran and found nothing. Rephrase the question or loosen its conditions.'));
    return h('div', { class: 'query-result' },
        h('section', { class: 'card section', 'aria-labelledby': 'query-sql-heading' },
            h('div', { class: 'section-head' }, h('h2', { id: 'query-sql-heading' }, 'SQL'), copyBtn),
            h('pre', { class: 'tc-code query-sql', id: 'query-sql' }, answer.sql),
            answer.explanation ? h('p', { class: 'query-explanation', id: 'query-explanation' }, answer.explanation) : null),
        h('section', { class: 'card section', 'aria-labelledby': 'query-rows-heading' },
            h('div', { class: 'section-head' }, h('div', {}, h('h2', { id: 'query-rows-heading' }, 'Result'), facts), csvBtn),
            table));
}

function failureView(err) {
    const box = alertBox(err, err.code === 'query_refused' ? 'The SQL was not run' : 'The question was not answered');
    const sql = err.details && err.details.sql;
    const permission = err.details && err.details.required_permission;
    return h('div', { class: 'query-failure', id: 'query-error' }, box,
        permission ? h('p', { class: 'hint' }, `Reading this needs the permission `, h('code', {}, permission), '; ask an admin to grant it.') : null,
        sql ? h('section', { class: 'card section' }, h('div', { class: 'section-head' }, h('h2', {}, 'The SQL the model wrote')),
            h('pre', { class: 'tc-code query-sql', id: 'query-refused-sql' }, sql)) : null);
}

function cellText(value) {
    if (value === null || value === undefined) return 'NULL';
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** RFC 4180: fields with a comma, quote or line break are quoted, quotes doubled, lines end with CRLF. */
export function toCsv(columns, rows) {
    const cell = (v) => {
        const text = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
        return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
    };
    return [columns.map(cell).join(','), ...rows.map(r => columns.map(c => cell(r[c])).join(','))].join('\r\n') + '\r\n';
}

function download(text, filename) {
    // a byte order mark so spreadsheet programs read UTF-8 (the demo data is Chinese)
    const url = URL.createObjectURL(new Blob(['\ufeff', text], { type: 'text/csv;charset=utf-8' }));
    const a = h('a', { href: url, download: filename, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
}
