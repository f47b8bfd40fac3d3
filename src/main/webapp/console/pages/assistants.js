// Assistants: name, system prompt, model, knowledge base on/off and the MCP servers they use (助手设置).
import { api } from '../api.js';
import { alertBox, busy, button, confirmDialog, describeError, h, icon, openModal, plural, toast } from '../ui.js';
import { endpointText, TYPE_LABELS } from './servers.js';

export async function render(main, ctx) {
    const list = h('div', { class: 'list', id: 'assistant-list', 'aria-live': 'polite' });
    main.append(h('div', { class: 'page' },
        h('header', { class: 'page-head' },
            h('div', {}, h('h1', {}, 'Assistants'),
                h('p', {}, 'An assistant combines a model, a system prompt and the MCP servers whose tools it may call.')),
            h('div', { class: 'page-actions' }, button('New assistant', { kind: 'primary', iconName: 'plus', id: 'add-assistant', onClick: () => edit(null) }))),
        list));

    list.append(h('div', { class: 'skeleton', style: 'height:96px' }), h('div', { class: 'skeleton', style: 'height:96px' }));
    let assistants = [];
    let servers = [];
    // "New assistant" is on screen before the lists arrive: the modal waits for them (it offers the servers)
    const loaded = Promise.all([api.get('/assistants').then(r => r.data), api.get('/mcp-servers').then(r => r.data)]);
    try {
        [assistants, servers] = await loaded;
    } catch (err) {
        list.replaceChildren(alertBox(err, 'Could not load your assistants'));
        return;
    }
    draw();

    function draw() {
        if (!assistants.length) {
            list.replaceChildren(h('div', { class: 'card empty' }, h('div', { class: 'empty-icon' }, icon('bot', 26)),
                h('h2', {}, 'No assistants yet'),
                h('p', {}, 'Create one, pick the MCP servers it may use, and it is ready for chat.'),
                button('Create an assistant', { kind: 'primary', iconName: 'plus', onClick: () => edit(null) })));
            return;
        }
        list.replaceChildren(...assistants.map(card));
    }

    function card(a) {
        const byId = new Map(servers.map(s => [s.id, s]));
        const used = (a.mcpServerIds || []).map(id => byId.get(id)).filter(Boolean);
        return h('article', { class: 'card assistant-card', dataset: { assistantId: a.id, assistantName: a.name }, 'aria-labelledby': `assistant-${a.id}-name` },
            h('div', { class: 'assistant-icon', 'aria-hidden': 'true' }, a.name.slice(0, 1).toUpperCase()),
            h('div', { style: 'min-width:0' },
                h('h3', { id: `assistant-${a.id}-name` }, a.name),
                h('div', { class: 'meta' }, [a.model ? `Model ${a.model}` : 'Default model', a.knowledgeBaseEnabled ? 'Knowledge base on' : 'Knowledge base off',
                    plural(used.length, 'MCP server')].join(' · ')),
                a.description ? h('div', { class: 'meta' }, a.description) : null,
                a.systemPrompt ? h('div', { class: 'prompt' }, a.systemPrompt) : null,
                used.length ? h('div', { class: 'chips', 'aria-label': 'MCP servers' }, used.map(s => h('span', { class: 'chip' },
                    h('span', { class: `dot ${s.status}`, 'aria-hidden': 'true' }), s.name))) : null),
            h('div', { class: 'actions' },
                button('Edit', { kind: 'ghost', size: 'sm', iconName: 'edit', 'aria-label': `Edit ${a.name}`, onClick: () => edit(a) }),
                button('', { kind: 'ghost', size: 'sm', iconName: 'trash', class: 'btn btn-ghost btn-sm btn-icon danger', 'aria-label': `Delete ${a.name}`, title: 'Delete', onClick: () => remove(a) })));
    }

    async function edit(a) {
        try {
            await loaded;
        } catch {
            return; // the page already says why
        }
        const saved = await openAssistantModal(a, servers);
        if (!saved) return;
        assistants = a ? assistants.map(x => x.id === saved.id ? saved : x) : [...assistants, saved];
        draw();
        toast(a ? `Saved ${saved.name}` : `Created ${saved.name}`);
    }

    async function remove(a) {
        if (!await confirmDialog({ title: `Delete ${a.name}?`, message: 'The assistant and its server choices are removed. Your MCP servers stay.', confirmLabel: 'Delete assistant' })) return;
        try {
            await api.del(`/assistants/${a.id}`);
            assistants = assistants.filter(x => x.id !== a.id);
            draw();
            toast(`Deleted ${a.name}`);
            document.getElementById('add-assistant').focus();
        } catch (err) {
            toast(`Could not delete ${a.name}: ${describeError(err).headline}`, 'error');
        }
    }
}

function openAssistantModal(a, servers) {
    const creating = !a;
    const v = a || { knowledgeBaseEnabled: false, mcpServerIds: [] };
    const name = h('input', { type: 'text', id: 'asst-name', value: v.name || '', maxlength: 100, required: true, autocomplete: 'off', placeholder: 'e.g. Data analyst' });
    const description = h('input', { type: 'text', id: 'asst-description', value: v.description || '', maxlength: 1000, autocomplete: 'off', placeholder: 'What it is for' });
    const model = h('input', { type: 'text', id: 'asst-model', class: 'mono', value: v.model || '', maxlength: 200, autocomplete: 'off', spellcheck: 'false', placeholder: 'e.g. gpt-4o-mini', list: 'asst-model-suggestions' });
    const suggestions = h('datalist', { id: 'asst-model-suggestions' }, ['gpt-4o-mini', 'gpt-4o', 'claude-sonnet-4', 'deepseek-chat', 'qwen-plus'].map(m => h('option', { value: m })));
    const prompt = h('textarea', { id: 'asst-prompt', rows: 5, placeholder: 'You are a helpful assistant that…' });
    prompt.value = v.systemPrompt || '';
    const kb = h('input', { type: 'checkbox', role: 'switch', id: 'asst-kb', checked: !!v.knowledgeBaseEnabled });
    const chosen = new Set(v.mcpServerIds || []);
    const serverList = servers.length
        ? h('div', { class: 'check-list', role: 'group', 'aria-labelledby': 'asst-servers-label' }, servers.map(s => h('label', { class: 'check-item' },
            h('input', { type: 'checkbox', value: String(s.id), checked: chosen.has(s.id), dataset: { serverName: s.name } }),
            h('span', { class: 'grow' }, h('div', {}, s.name), h('div', { class: 'sub', title: endpointText(s, false) }, endpointText(s))),
            h('span', { class: 'badge accent' }, TYPE_LABELS[s.type] || s.type),
            s.isActive ? null : h('span', { class: 'badge warn' }, 'Inactive'))))
        : h('div', { class: 'alert info' }, icon('info'), h('div', {}, 'You have no MCP servers yet. ', h('a', { href: '#/servers' }, 'Add one'), ' first to give the assistant tools.'));
    const errors = h('div', { 'aria-live': 'assertive' });
    const nameError = h('div', { class: 'field-error', id: 'asst-name-error', hidden: true });
    name.setAttribute('aria-describedby', 'asst-name-error');
    const save = h('button', { type: 'submit', class: 'btn btn-primary' }, creating ? 'Create assistant' : 'Save changes');

    const { closed } = openModal({
        title: creating ? 'New assistant' : `Edit ${v.name}`,
        build: (dialog, head) => [head, h('form', { novalidate: true, onsubmit: async (e) => {
            e.preventDefault();
            errors.replaceChildren();
            nameError.hidden = true;
            name.parentElement.classList.remove('invalid');
            if (!name.value.trim()) {
                name.parentElement.classList.add('invalid');
                nameError.textContent = 'Give the assistant a name.';
                nameError.hidden = false;
                name.focus();
                return;
            }
            const body = {
                name: name.value.trim(), description: description.value.trim(), systemPrompt: prompt.value,
                model: model.value.trim(), knowledgeBaseEnabled: kb.checked,
                mcpServerIds: [...serverList.querySelectorAll('input[type=checkbox]:checked')].map(i => Number(i.value)),
            };
            try {
                dialog.finish(await busy(save, creating ? api.post('/assistants', body) : api.put(`/assistants/${a.id}`, body), 'Saving…'));
            } catch (err) {
                errors.replaceChildren(alertBox(err, creating ? 'The assistant was not created' : 'The changes were not saved'));
            }
        } },
            h('div', { class: 'modal-body' }, errors,
                h('div', { class: 'row' },
                    h('div', { class: 'field' }, h('label', { for: 'asst-name' }, 'Name'), name, nameError),
                    h('div', { class: 'field' }, h('label', { for: 'asst-model' }, 'Model', h('span', { class: 'optional' }, ' (optional)')), model, suggestions)),
                h('div', { class: 'field' }, h('label', { for: 'asst-description' }, 'Description', h('span', { class: 'optional' }, ' (optional)')), description),
                h('div', { class: 'field' }, h('label', { for: 'asst-prompt' }, 'System prompt', h('span', { class: 'optional' }, ' (optional)')), prompt),
                h('div', { class: 'field' }, h('label', { class: 'switch', for: 'asst-kb' }, kb, h('span', { class: 'switch-text' }, 'Knowledge base',
                    h('small', {}, 'Let the assistant search your workspace documents')))),
                h('div', { class: 'field' }, h('div', { class: 'label', id: 'asst-servers-label' }, 'MCP servers'),
                    h('div', { class: 'hint' }, 'The enabled tools of these servers are offered to the model.'), serverList)),
            h('div', { class: 'modal-foot' }, button('Cancel', { onClick: () => dialog.close() }), save))],
    });
    name.focus();
    return closed;
}
