// Chat playground: pick an assistant (and a model), send, watch the answer stream in with each tool call shown inline
// as the MCP client system's ToolCallBlock (status, arguments, collapsible result, Approve / Reject while pending). Conversations
// are listed from /api/conversations and reopened from their stored messages. An open conversation is watched through
// /api/conversations/{id}/events, so a call started in another tab or on another device shows up here while it waits
// for approval (and can be approved here), and a decision taken elsewhere shows here too.
import { api, getEventStream, postEventStream } from '../api.js';
import { alertBox, button, describeError, h, icon, relativeTime, toast } from '../ui.js';
import { renderMarkdown } from '../markdown.js';

const STATUS = {
    pending: { label: 'Waiting for approval', badge: 'warn', icon: 'clock' },
    invoking: { label: 'Running', badge: 'accent', icon: null },
    done: { label: 'Done', badge: 'ok', icon: 'check' },
    error: { label: 'Failed', badge: 'danger', icon: 'alert' },
    cancelled: { label: 'Cancelled', badge: '', icon: 'ban' },
};
/** Why a call was cancelled, from the refusal the model was given (chat/ToolApproval's codes). */
const CANCELLED_BECAUSE = {
    tool_rejected: 'Rejected',
    approval_timeout: 'Not approved in time',
    run_stopped: 'Cancelled',
};
/** Where a tool call's status stands in its life: a block never goes back (two streams may tell it in either order). */
const STATUS_RANK = { pending: 0, invoking: 1, done: 2, error: 2, cancelled: 2 };
/** How long the page waits before it watches the conversation again after its event stream ended. */
const REWATCH_MS = 2000;
const MODEL_SUGGESTIONS = ['gpt-4o-mini', 'gpt-4o', 'claude-sonnet-4', 'deepseek-chat', 'qwen-plus'];
const PICK_KEY = 'switchboard.chat.assistant';

export async function render(main, ctx, conversationIdText) {
    const openId = conversationIdText ? Number(conversationIdText) : null;
    const convList = h('ul', { class: 'conv-list', id: 'conversation-list', 'aria-label': 'Conversations' });
    const convPanel = h('aside', { class: 'card conv-panel', 'aria-labelledby': 'conv-heading' },
        h('div', { class: 'conv-head' }, h('h2', { id: 'conv-heading' }, 'Conversations'),
            button('New', { kind: 'ghost', size: 'sm', iconName: 'plus', id: 'new-chat', title: 'Start a new conversation', onClick: () => ctx.navigate('#/chat') })),
        convList);

    const assistantSelect = h('select', { id: 'chat-assistant' }, h('option', { value: '' }, 'Loading…'));
    const modelInput = h('input', { type: 'text', id: 'chat-model', class: 'mono', list: 'chat-model-suggestions', placeholder: 'Default model', autocomplete: 'off', spellcheck: 'false', maxlength: 200 });
    const transcript = h('div', { class: 'transcript', id: 'transcript', role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation', tabindex: '0' });
    const input = h('textarea', { id: 'chat-input', rows: 2, placeholder: 'Ask something…  (Enter sends, Shift+Enter adds a line)', 'aria-describedby': 'chat-hint' });
    const sendBtn = h('button', { type: 'submit', class: 'btn btn-primary', id: 'chat-send' }, icon('send'), 'Send');
    const stopBtn = button('Stop', { iconName: 'stop', id: 'chat-stop', hidden: true, onClick: () => controller && controller.abort() });
    const formError = h('div', { 'aria-live': 'assertive', id: 'chat-error' });
    const title = h('h1', { id: 'chat-title' }, 'Chat');
    const form = h('form', { class: 'composer', novalidate: true, onsubmit: (e) => { e.preventDefault(); sendMessage(); } },
        formError,
        h('label', { class: 'sr-only', for: 'chat-input' }, 'Message'),
        h('div', { class: 'composer-row' }, input, h('div', { class: 'composer-actions' }, sendBtn, stopBtn)),
        h('div', { class: 'hint', id: 'chat-hint' }, 'Tools of the assistant\u2019s MCP servers run inline; calls that are not auto-approved wait for you.'));

    const pickers = h('div', { class: 'chat-toolbar' },
        h('div', { class: 'field inline' }, h('label', { for: 'chat-assistant' }, 'Assistant'), assistantSelect),
        h('div', { class: 'field inline' }, h('label', { for: 'chat-model' }, 'Model'), modelInput,
            h('datalist', { id: 'chat-model-suggestions' }, MODEL_SUGGESTIONS.map(m => h('option', { value: m })))));
    main.append(h('div', { class: 'page page-wide' },
        h('header', { class: 'page-head chat-head' },
            h('div', {}, title, h('p', {}, 'Talk to an assistant and watch it call its MCP tools.'))),
        h('div', { class: 'chat-layout' }, convPanel,
            h('section', { class: 'card chat-pane', 'aria-label': 'Chat' }, pickers, transcript, form))));

    // state of this page
    let assistants = [];
    let conversations = [];
    let history = [];          // OpenAI messages sent with the next request
    let sessionId = newSessionId();
    let conversationId = openId;
    let controller = null;
    let live = null;           // the bubble of the answer this page is streaming
    let bubbles = new Map();   // assistant bubbles by their stored message id
    let watching = null;       // the conversation's event stream: { id, controller, lastEventId }
    let reloading = null;      // a reload of the conversation in progress: events wait for it
    let reloadWhenIdle = false;

    const leave = () => { if (controller) controller.abort(); stopWatching(); };
    window.addEventListener('hashchange', leave, { once: true });

    input.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); form.requestSubmit(); }
    });
    assistantSelect.addEventListener('change', () => {
        sessionStorage.setItem(PICK_KEY, assistantSelect.value);
        const a = assistants.find(x => String(x.id) === assistantSelect.value);
        modelInput.placeholder = a && a.model ? a.model : 'Default model';
        modelInput.title = a && a.model ? `Leave empty for the assistant’s model, ${a.model}` : 'Leave empty for Switchboard’s default model';
    });

    const loadAssistants = api.get('/assistants').then(r => r.data);
    const loadConversations = api.get('/conversations').then(r => r.data);
    loadConversations.catch(() => { /* shown below */ });
    try {
        assistants = await loadAssistants;
    } catch (err) {
        assistantSelect.replaceChildren(h('option', { value: '' }, 'Could not load assistants'));
        formError.replaceChildren(alertBox(err, 'Could not load your assistants'));
    }
    assistantSelect.replaceChildren(h('option', { value: '' }, 'No assistant (model only)'),
        ...assistants.map(a => h('option', { value: String(a.id) }, a.name)));
    const remembered = sessionStorage.getItem(PICK_KEY);
    if (remembered && assistants.some(a => String(a.id) === remembered)) assistantSelect.value = remembered;
    else if (assistants.length) assistantSelect.value = String(assistants[assistants.length - 1].id);
    assistantSelect.dispatchEvent(new Event('change'));

    // drawn once the assistants are known: the list names each conversation's assistant
    await refreshConversations(loadConversations);
    if (openId && await reopen(openId)) watch(openId);
    else if (!openId) showEmpty();
    input.focus();

    function newSessionId() {
        return 'console-' + (crypto.randomUUID ? crypto.randomUUID() : Math.random().toString(36).slice(2));
    }

    function showEmpty() {
        transcript.replaceChildren(h('div', { class: 'empty chat-empty' }, h('div', { class: 'empty-icon' }, icon('chat', 26)),
            h('h2', {}, 'Start a conversation'),
            h('p', {}, assistants.length ? 'Pick an assistant above and send a message. Tool calls appear inline as they run.'
                : h('span', {}, 'You have no assistants yet. ', h('a', { href: '#/assistants' }, 'Create one'), ' to give the model MCP tools, or chat with the model alone.'))));
    }

    async function refreshConversations(loading) {
        try {
            conversations = loading ? await loading : (await api.get('/conversations')).data;
        } catch (err) {
            convList.replaceChildren(h('li', { class: 'conv-error' }, alertBox(err, 'Could not load conversations')));
            return;
        }
        drawConversations();
    }

    function drawConversations() {
        if (!conversations.length) {
            convList.replaceChildren(h('li', { class: 'conv-none' }, 'No conversations yet.'));
            return;
        }
        const byId = new Map(assistants.map(a => [a.id, a]));
        convList.replaceChildren(...conversations.map(c => {
            const a = c.assistantId != null ? byId.get(c.assistantId) : null;
            return h('li', {}, h('a', {
                href: `#/chat/${c.id}`, class: 'conv-item', dataset: { conversationId: c.id },
                'aria-current': c.id === conversationId ? 'page' : null,
            }, h('span', { class: 'conv-title' }, c.title || 'Untitled conversation'),
            h('span', { class: 'conv-meta' }, [a ? a.name : (c.assistantId != null ? 'Deleted assistant' : 'No assistant'), relativeTime(c.updatedAt)].join(' · '))));
        }));
    }

    async function reopen(id) {
        transcript.replaceChildren(h('div', { class: 'loading' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), 'Loading the conversation…'));
        let answer;
        try {
            answer = await api.get(`/conversations/${id}/messages`);
        } catch (err) {
            transcript.replaceChildren(alertBox(err, err.status === 404 ? 'This conversation does not exist or is not yours' : 'Could not load the conversation'));
            return false;
        }
        const c = answer.conversation;
        conversationId = c.id;
        sessionId = c.sessionId || newSessionId();
        title.textContent = c.title || 'Chat';
        if (c.assistantId != null && assistants.some(a => a.id === c.assistantId)) {
            assistantSelect.value = String(c.assistantId);
            assistantSelect.dispatchEvent(new Event('change'));
        }
        history = [];
        bubbles = new Map();
        transcript.replaceChildren();
        for (const m of answer.data) {
            if (m.role === 'user') {
                history.push({ role: 'user', content: m.content || '' });
                transcript.append(userBubble(m.content || ''));
            } else if (m.role === 'assistant') {
                if (m.content) history.push({ role: 'assistant', content: m.content });
                const view = assistantBubble();
                bubbles.set(m.id, view);
                for (const call of m.toolCalls || []) view.upsertCall(call, m.id);
                if (m.content) view.appendText(m.content);
                if (m.finishReason === 'error') view.note('This answer stopped early: the model failed or the reply was interrupted.', 'warn');
                view.finish();
                transcript.append(view.root);
            }
        }
        if (!transcript.children.length) showEmpty();
        drawConversations();
        scrollDown(true);
        return true;
    }

    /** Watches the conversation's tool calls until the page is left; an ended stream is resumed after a pause. */
    function watch(id) {
        if (watching && watching.id === id) return;
        stopWatching();
        const w = { id, controller: new AbortController(), lastEventId: null };
        watching = w;
        (async () => {
            while (watching === w) {
                try {
                    await getEventStream(`/conversations/${id}/events`, onConversationEvent,
                        { signal: w.controller.signal, lastEventId: w.lastEventId, onId: (eventId) => { w.lastEventId = eventId; } });
                } catch (err) {
                    // not (or no longer) the caller's to watch, or signed out: the page says so where it reads the conversation
                    if ((err && err.name === 'AbortError') || (err && [401, 403, 404].includes(err.status))) return;
                }
                await new Promise(resolve => setTimeout(resolve, REWATCH_MS));
            }
        })();
    }

    function stopWatching() {
        if (watching) watching.controller.abort();
        watching = null;
    }

    /** seed 004's assistant.toolCall.updated (tool.message.updated says the same per message), and the stream's reload signal. */
    function onConversationEvent(e) {
        if (e.event === 'conversation.reload') {
            reload();
            return;
        }
        if (e.event !== 'assistant.toolCall.updated' || !e.data || !e.data.toolCall) return;
        if (reloading) {
            reloading.then(() => onConversationEvent(e));
            return;
        }
        const { messageId, toolCall } = e.data;
        const view = bubbles.get(messageId) || claimLive(messageId);
        if (view) {
            view.upsertCall(toolCall, messageId);
            scrollDown();
        } else {
            reload(); // a run started elsewhere: read it, with its question and what it has so far
        }
    }

    /** The answer this page streams has not named its message yet: the first event of an unknown message is its. */
    function claimLive(messageId) {
        if (!live || live.messageId) return null;
        live.messageId = messageId;
        bubbles.set(messageId, live);
        return live;
    }

    /** Reads the conversation again, once this page's own answer has ended. */
    function reload() {
        if (controller) { reloadWhenIdle = true; return; }
        if (reloading) return;
        reloading = reopen(conversationId).finally(() => { reloading = null; });
    }

    async function sendMessage() {
        const text = input.value.trim();
        if (!text || controller) return;
        formError.replaceChildren();
        if (transcript.querySelector('.chat-empty')) transcript.replaceChildren();
        transcript.append(userBubble(text));
        const view = assistantBubble();
        view.thinking();
        transcript.append(view.root);
        live = view;
        scrollDown(true);
        input.value = '';

        const body = { stream: true, session_id: sessionId, messages: [...history, { role: 'user', content: text }] };
        if (assistantSelect.value) body.assistant_id = Number(assistantSelect.value);
        if (modelInput.value.trim()) body.model = modelInput.value.trim();

        controller = new AbortController();
        sendBtn.hidden = true;
        stopBtn.hidden = false;
        let answerText = '';
        let finished = false;
        let failed = false;
        try {
            await postEventStream('/chat/completions', body, (e) => {
                if (e.text === '[DONE]') return;
                const chunk = e.data;
                if (!chunk) return;
                if (chunk.error) {
                    failed = true;
                    view.note(`The model did not finish: ${describeError(chunk.error).headline} Send the message again to retry.`, 'error');
                    return;
                }
                const messageId = chunk.messageId || chunk.message_id;
                if (messageId && !view.messageId) { view.messageId = messageId; bubbles.set(messageId, view); }
                if (e.event === 'assistant.toolCall.updated' || chunk.type === 'tool_call_updated') {
                    if (chunk.toolCall) view.upsertCall(chunk.toolCall, chunk.messageId);
                } else if (chunk.type === 'content') {
                    const piece = chunk.delta && typeof chunk.delta.content === 'string' ? chunk.delta.content : '';
                    if (piece) { answerText += piece; view.appendText(piece); }
                } else if (chunk.type === 'tool_call') {
                    const handedBack = chunk.choices && chunk.choices[0] && chunk.choices[0].delta && chunk.choices[0].delta.tool_calls;
                    for (const call of (handedBack || (chunk.delta && chunk.delta.tool_calls) || [])) {
                        view.upsertCall({
                            id: call.id, displayName: call.function && call.function.name, toolName: call.function && call.function.name,
                            arguments: call.function && call.function.arguments, status: call.status || 'pending',
                        }, chunk.message_id || chunk.messageId);
                    }
                } else if (chunk.type === 'tool_result') {
                    view.upsertCall({ id: chunk.tool_call_id, status: chunk.status || (chunk.result && chunk.result.success === false ? 'error' : 'done'),
                        resultText: chunk.result ? chunk.result.content : undefined, isError: chunk.result ? chunk.result.success === false : false });
                } else if (chunk.type === 'done') {
                    finished = true;
                    view.done(chunk);
                    if (chunk.conversation_id) conversationId = chunk.conversation_id;
                }
                scrollDown();
            }, { signal: controller.signal });
            if (answerText) history.push({ role: 'user', content: text }, { role: 'assistant', content: answerText });
            else history.push({ role: 'user', content: text });
            if (!finished && !failed) view.note('The answer ended without finishing; the connection may have been cut.', 'warn');
        } catch (err) {
            if (err && err.name === 'AbortError') {
                view.note('Stopped. What arrived so far is kept in the conversation.', 'warn');
                history.push({ role: 'user', content: text });
                if (answerText) history.push({ role: 'assistant', content: answerText });
            } else {
                view.root.remove();
                const mine = transcript.lastElementChild;
                if (mine && mine.classList.contains('msg-user')) mine.remove();
                if (!transcript.children.length) showEmpty();
                input.value = text;
                formError.replaceChildren(alertBox(err, chatErrorTitle(err)));
            }
        } finally {
            controller = null;
            live = null;
            view.finish();
            sendBtn.hidden = false;
            stopBtn.hidden = true;
            if (document.activeElement === stopBtn || document.activeElement === document.body) input.focus();
        }
        // a stopped or cut answer sent no conversation id: the conversation is the one stored under this session id
        await refreshConversations();
        const c = conversations.find(x => x.id === conversationId) || conversations.find(x => x.sessionId === sessionId);
        if (c) {
            conversationId = c.id;
            drawConversations();
            if (c.title) title.textContent = c.title;
            // the address names the conversation (reload reopens it) without rendering the page again
            if (location.hash !== `#/chat/${c.id}`) window.history.replaceState(null, '', `#/chat/${c.id}`);
            watch(c.id);
        }
        if (reloadWhenIdle) {
            reloadWhenIdle = false;
            reload();
        }
        scrollDown();
    }

    function scrollDown(force = false) {
        const near = transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < 120;
        if (force || near) transcript.scrollTop = transcript.scrollHeight;
    }
}

function chatErrorTitle(err) {
    if (err && err.type === 'llm_error') return 'The model did not answer';
    if (err && err.status === 404) return 'The assistant no longer exists';
    if (err && err.status === 400) return 'The message was not sent';
    return 'The message was not sent';
}

function userBubble(text) {
    return h('div', { class: 'msg msg-user' }, h('div', { class: 'msg-body' }, text));
}

/** One assistant turn: text and tool blocks in the order they happen. */
function assistantBubble() {
    const parts = h('div', { class: 'msg-parts' });
    const footer = h('div', { class: 'msg-foot' });
    const root = h('div', { class: 'msg msg-assistant', 'aria-busy': 'true' },
        h('div', { class: 'msg-avatar', 'aria-hidden': 'true' }, icon('bot', 16)),
        h('div', { class: 'msg-main' }, parts, footer));
    let textNode = null;
    let thinkingEl = null;
    const dirty = new Set();
    let drawQueued = false;
    const blocks = new Map();

    return {
        root,
        thinking() {
            thinkingEl = h('div', { class: 'thinking' }, h('span', { class: 'dots', 'aria-hidden': 'true' }, h('i'), h('i'), h('i')), h('span', { class: 'sr-only' }, 'The assistant is answering'));
            parts.append(thinkingEl);
        },
        appendText(piece) {
            clearThinking();
            if (!textNode) {
                textNode = h('div', { class: 'msg-text', dataset: { raw: '' } });
                parts.append(textNode);
            }
            textNode.dataset.raw += piece;
            // drawn again as Markdown at most once a frame while it streams
            dirty.add(textNode);
            if (!drawQueued) { drawQueued = true; requestAnimationFrame(drawText); }
        },
        upsertCall(call, messageId) {
            clearThinking();
            let block = blocks.get(call.id);
            if (!block) {
                block = toolCallBlock(call, messageId);
                blocks.set(call.id, block);
                parts.append(block.root);
                textNode = null; // text after a tool call starts a new paragraph below it
            }
            block.update(call, messageId);
        },
        note(message, kind) {
            clearThinking();
            footer.append(h('div', { class: `msg-note ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, icon(kind === 'error' ? 'alert' : 'info'), h('span', {}, message)));
        },
        done(chunk) {
            if (chunk.message_id) for (const block of blocks.values()) block.update({}, chunk.message_id);
            const exec = chunk.tool_execution || {};
            const facts = [];
            if (blocks.size) facts.push(`${blocks.size} tool call${blocks.size === 1 ? '' : 's'}`);
            if (exec.rounds) facts.push(`${exec.rounds} round${exec.rounds === 1 ? '' : 's'}`);
            if (chunk.model) facts.push(chunk.model);
            if (exec.round_limit_reached) facts.push('tool round limit reached');
            if (chunk.finish_reason === 'tool_calls') this.note('The model asked for tools that need your approval. Approve or reject each call above.', 'info');
            if (facts.length) footer.prepend(h('div', { class: 'msg-facts' }, facts.join(' · ')));
        },
        finish() {
            clearThinking();
            drawText();
            root.removeAttribute('aria-busy');
            if (!parts.children.length && !footer.querySelector('.msg-note')) parts.append(h('div', { class: 'msg-text muted' }, 'No answer.'));
        },
    };

    function drawText() {
        drawQueued = false;
        for (const node of dirty) node.replaceChildren(...renderMarkdown(node.dataset.raw));
        dirty.clear();
    }

    function clearThinking() {
        if (thinkingEl) { thinkingEl.remove(); thinkingEl = null; }
    }
}

/** The MCP client system's ToolCallBlock: status, arguments, collapsible result, Approve / Reject while pending. */
function toolCallBlock(initial, initialMessageId) {
    const state = { ...initial, messageId: initialMessageId };
    const name = h('span', { class: 'tc-name' });
    const server = h('span', { class: 'tc-server' });
    const badge = h('span', { class: 'badge tc-status' });
    const args = h('pre', { class: 'tc-code tc-args' });
    const result = h('pre', { class: 'tc-code tc-result' });
    const resultBox = h('details', { class: 'tc-section', hidden: true }, h('summary', {}, 'Result'), result);
    const argsBox = h('details', { class: 'tc-section', open: true }, h('summary', {}, 'Arguments'), args);
    const actions = h('div', { class: 'tc-actions', hidden: true });
    const message = h('div', { 'aria-live': 'polite' });
    const root = h('div', { class: 'tool-block', role: 'group' },
        h('div', { class: 'tc-head' }, h('span', { class: 'tc-icon', 'aria-hidden': 'true' }, icon('tools', 15)), name, server, badge),
        h('div', { class: 'tc-body' }, argsBox, resultBox, actions, message));
    let approveBtn;
    let rejectBtn;
    let deciding = false;

    function update(call, messageId) {
        if (call.status && state.status && STATUS_RANK[call.status] < STATUS_RANK[state.status]) return; // older news
        for (const [k, v] of Object.entries(call)) if (v !== undefined && v !== null) state[k] = v;
        if (messageId) state.messageId = messageId;
        const toolName = state.toolName && state.toolName !== state.displayName ? state.toolName : shortName(state.displayName);
        name.textContent = toolName || 'tool';
        server.textContent = state.serverName ? `on ${state.serverName}` : '';
        const status = STATUS[state.status] ? state.status : 'invoking';
        const s = status === 'cancelled' ? { ...STATUS.cancelled, label: state.rejectedHere ? CANCELLED_BECAUSE.tool_rejected : cancelledLabel(state.response) } : STATUS[status];
        badge.className = `badge tc-status ${s.badge}`;
        badge.replaceChildren(status === 'invoking' ? h('span', { class: 'spinner', 'aria-hidden': 'true' }) : icon(s.icon, 13), s.label);
        root.dataset.status = status;
        root.dataset.toolCallId = state.id;
        if (state.messageId) root.dataset.messageId = state.messageId;
        root.dataset.tool = toolName || '';
        root.setAttribute('aria-label', `Tool call ${toolName}: ${s.label}`);
        args.textContent = pretty(state.arguments);
        const text = state.resultText !== undefined ? state.resultText : responseText(state.response);
        if (text !== undefined && text !== null && text !== '') {
            resultBox.hidden = false;
            result.textContent = text;
            result.classList.toggle('is-error', !!state.isError || status === 'error');
            argsBox.open = false;
            if (status === 'error' || status === 'cancelled') resultBox.open = true;
        }
        root.classList.toggle('tc-pending', status === 'pending');
        if (status === 'pending') showDecision();
        else actions.hidden = true;
    }

    function showDecision() {
        if (actions.childElementCount === 0) {
            approveBtn = button('Approve', { kind: 'primary', size: 'sm', iconName: 'check', 'aria-label': `Approve ${name.textContent}`, onClick: () => decide(true) });
            rejectBtn = button('Reject', { size: 'sm', iconName: 'x', 'aria-label': `Reject ${name.textContent}`, onClick: () => decide(false) });
            actions.append(approveBtn, rejectBtn, h('span', { class: 'hint' }, 'This tool is not auto-approved: it runs only if you approve it.'));
        }
        actions.hidden = false;
    }

    async function decide(approved) {
        if (deciding) return;
        message.replaceChildren();
        if (!state.messageId) {
            message.replaceChildren(h('div', { class: 'alert' }, icon('alert'), h('div', {}, h('strong', {}, 'This call cannot be decided here.'),
                h('span', {}, 'The stream did not say which stored message it belongs to; reload the conversation and try again.'))));
            return;
        }
        deciding = true;
        approveBtn.disabled = rejectBtn.disabled = true;
        const btn = approved ? approveBtn : rejectBtn;
        const original = Array.from(btn.childNodes);
        btn.replaceChildren(h('span', { class: 'spinner', 'aria-hidden': 'true' }), approved ? 'Approving…' : 'Rejecting…');
        try {
            await api.post(`/messages/${state.messageId}/tool-confirm`, { toolCallId: state.id, approved });
            toast(approved ? `Approved ${name.textContent}` : `Rejected ${name.textContent}`);
            if (!approved) update({ status: 'cancelled', rejectedHere: true });
            else if (state.status === 'pending') update({ status: 'invoking' });
        } catch (err) {
            message.replaceChildren(alertBox(err, 'The decision was not saved'));
        } finally {
            deciding = false;
            btn.replaceChildren(...original);
            if (approveBtn) approveBtn.disabled = rejectBtn.disabled = false;
        }
    }

    update(initial, initialMessageId);
    return { root, update };
}

function cancelledLabel(response) {
    const code = response && response.error && response.error.code;
    return CANCELLED_BECAUSE[code] || STATUS.cancelled.label;
}

function shortName(displayName) {
    if (!displayName) return '';
    const m = /^mcp__.+?__(.+)$/.exec(displayName);
    return m ? m[1] : displayName;
}

function pretty(value) {
    if (value === undefined || value === null || value === '') return '{}';
    if (typeof value === 'string') {
        try { return JSON.stringify(JSON.parse(value), null, 2); } catch { return value; }
    }
    return JSON.stringify(value, null, 2);
}

/** A stored MCP CallToolResult (or error object) as text: the text items joined, else JSON. */
function responseText(response) {
    if (response === undefined || response === null) return undefined;
    if (typeof response === 'string') return response;
    if (Array.isArray(response.content)) {
        const texts = response.content.map(c => c.type === 'text' ? c.text : `[${c.type}${c.mimeType ? ' ' + c.mimeType : ''}]`);
        if (texts.length) return texts.join('\n');
    }
    if (response.error) return response.error.message ? `${response.error.code ? response.error.code + ': ' : ''}${response.error.message}` : JSON.stringify(response.error, null, 2);
    return JSON.stringify(response, null, 2);
}
