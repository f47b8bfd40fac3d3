// The REST API client: bearer token from sessionStorage, JSON in and out, errors as ApiError.

const TOKEN_KEY = 'switchboard.token';

export class ApiError extends Error {
    constructor({ status = 0, code = '', type = '', message = '', kind = 'http', details = null }) {
        super(message);
        this.details = details; // what some endpoints add to explain an error (e.g. the refused SQL of /api/query)
        this.status = status;
        this.code = code;
        this.type = type;
        this.kind = kind;
    }
}

export const session = {
    get token() { return sessionStorage.getItem(TOKEN_KEY); },
    set token(value) {
        if (value) sessionStorage.setItem(TOKEN_KEY, value);
        else sessionStorage.removeItem(TOKEN_KEY);
    },
};

let onUnauthorized = () => {};
/** Called when the API answers 401 to a request that carried a token (expired or revoked session). */
export function setUnauthorizedHandler(handler) { onUnauthorized = handler; }

export async function request(method, path, body, { auth = true } = {}) {
    const response = await send(method, `/api${path}`, body, { auth });
    const text = await response.text();
    let json = null;
    if (text) {
        try { json = JSON.parse(text); } catch { json = null; }
    }
    if (!response.ok) throw errorOf(response, json, auth);
    return json;
}

async function send(method, url, body, { auth = true, accept = 'application/json', signal, headers: extra = {} } = {}) {
    const headers = { Accept: accept, ...extra };
    // a FormData body (a file upload) sets its own multipart Content-Type with the boundary
    const form = body instanceof FormData;
    if (body !== undefined && !form) headers['Content-Type'] = 'application/json';
    const token = session.token;
    if (auth && token) headers.Authorization = `Bearer ${token}`;
    try {
        return await fetch(url, { method, headers, signal, body: body === undefined || form ? body : JSON.stringify(body) });
    } catch (e) {
        if (e && e.name === 'AbortError') throw e;
        throw new ApiError({ kind: 'network', message: 'Switchboard cannot be reached' });
    }
}

function errorOf(response, json, auth = true) {
    const error = json && json.error ? json.error : {};
    const err = new ApiError({
        status: response.status, code: error.code || '', type: error.type || '',
        message: error.message || fallbackMessage(response.status), details: error.details || null,
    });
    if (response.status === 401 && auth && session.token) onUnauthorized(err);
    return err;
}

/**
 * POSTs a body that answers text/event-stream and calls onEvent({event, data}) for each event as it arrives
 * (data parsed as JSON when it is JSON). Resolves when the stream ends; an HTTP error before the stream is an ApiError.
 */
export function postEventStream(path, body, onEvent, { signal } = {}) {
    return eventStream('POST', path, body, onEvent, { signal });
}

/**
 * GETs an event stream, resuming after lastEventId when given (Last-Event-ID). Resolves with the id of the last event
 * the stream set when it ends, for the next resumption.
 */
export function getEventStream(path, onEvent, { signal, lastEventId, onId } = {}) {
    return eventStream('GET', path, undefined, onEvent, { signal, headers: lastEventId ? { 'Last-Event-ID': lastEventId } : {} }, { lastEventId, onId });
}

async function eventStream(method, path, body, onEvent, { signal, headers }, ids = {}) {
    const response = await send(method, `/api${path}`, body, { accept: 'text/event-stream', signal, headers });
    if (!response.ok) {
        const text = await response.text();
        let json = null;
        try { json = JSON.parse(text); } catch { json = null; }
        throw errorOf(response, json);
    }
    return readEventStream(response, onEvent, ids);
}

/**
 * Reads an SSE body: events are separated by a blank line; "event:" names one, "data:" lines carry it, "id:" sets
 * the stream's last event id (also on a block without data, which is not dispatched). Each event carries the last
 * event id as of it, onId hears of every id set, and the promise resolves with the last one (lastEventId: the id the
 * stream resumed from).
 */
export async function readEventStream(response, onEvent, { lastEventId = null, onId = () => {} } = {}) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let carry = ''; // a CR at the end of a piece may be the first half of a CRLF
    let lastId = lastEventId;
    const dispatch = (block) => {
        const parsed = parseEvent(block);
        if (parsed.id !== undefined) { lastId = parsed.id; onId(lastId); }
        if (parsed.text !== undefined) onEvent({ event: parsed.event, id: lastId, text: parsed.text, data: parsed.data });
    };
    for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        let text = carry + value;
        carry = '';
        if (text.endsWith('\r')) { carry = '\r'; text = text.slice(0, -1); }
        buffer += text.replace(/\r\n?/g, '\n');
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            dispatch(block);
        }
    }
    dispatch(buffer + (carry ? '\n' : ''));
    return lastId;
}

/** One block of an SSE body: its event name, the id it sets (undefined: none), and its data (text undefined: none). */
function parseEvent(block) {
    let event = 'message';
    let id;
    const data = [];
    for (const line of block.split('\n')) {
        if (line.startsWith(':') || line === '') continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
        else if (field === 'id' && !value.includes('\0')) id = value;
    }
    if (!data.length) return { event, id };
    const text = data.join('\n');
    let json;
    try { json = JSON.parse(text); } catch { json = undefined; }
    return { event, id, text, data: json };
}

/**
 * A small MCP client over Streamable HTTP for the console's own session token: initialize, then requests, then
 * close (DELETE). Answers may come as JSON or as an SSE stream; both are read.
 */
export async function mcpSession(url = '/mcp') {
    let sessionId = null;
    let protocolVersion = '2025-11-25';
    let nextId = 1;
    async function rpc(method, params, notification = false) {
        const message = { jsonrpc: '2.0', method, ...(params ? { params } : {}) };
        const id = notification ? undefined : nextId++;
        if (!notification) message.id = id;
        const headers = {};
        if (sessionId) headers['Mcp-Session-Id'] = sessionId;
        if (method !== 'initialize') headers['MCP-Protocol-Version'] = protocolVersion;
        const response = await send('POST', url, message, { accept: 'application/json, text/event-stream', headers });
        if (method === 'initialize') sessionId = response.headers.get('Mcp-Session-Id');
        if (notification && response.ok) return null;
        const type = response.headers.get('Content-Type') || '';
        let answer = null;
        if (response.ok && type.startsWith('text/event-stream')) {
            await readEventStream(response, (e) => { if (e.data && e.data.id === id && ('result' in e.data || 'error' in e.data)) answer = e.data; });
        } else {
            const text = await response.text();
            try { answer = text ? JSON.parse(text) : null; } catch { answer = null; }
        }
        if (!response.ok && !(answer && answer.error)) throw errorOf(response, answer);
        if (answer && answer.error) {
            throw new ApiError({ status: response.status, code: String(answer.error.code), type: 'mcp', message: answer.error.message || `MCP error ${answer.error.code}` });
        }
        if (!answer) throw new ApiError({ status: response.status, message: `The gateway sent no answer to ${method}` });
        return answer.result;
    }
    const init = await rpc('initialize', {
        protocolVersion, capabilities: {}, clientInfo: { name: 'switchboard-console', version: '1.0' },
    });
    protocolVersion = init.protocolVersion || protocolVersion;
    await rpc('notifications/initialized', undefined, true);
    return {
        init,
        request: rpc,
        async close() {
            if (!sessionId) return;
            try { await send('DELETE', url, undefined, { headers: { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': protocolVersion } }); } catch { /* best effort */ }
            sessionId = null;
        },
    };
}

/** A body that is not JSON (a document's text, a downloaded file), as 'text' or 'blob'; errors as ApiError. */
export async function fetchBody(path, as) {
    const response = await send('GET', `/api${path}`, undefined, { accept: '*/*' });
    if (!response.ok) {
        const text = await response.text();
        let json = null;
        try { json = JSON.parse(text); } catch { json = null; }
        throw errorOf(response, json);
    }
    return as === 'blob' ? response.blob() : response.text();
}

/** Operations endpoints outside /api (no token): /health answers JSON even when DOWN (503), /metrics text. */
export async function operations(path) {
    let response;
    try {
        response = await fetch(path, { headers: { Accept: path.startsWith('/metrics') ? 'text/plain' : 'application/json' } });
    } catch {
        throw new ApiError({ kind: 'network', message: 'Switchboard cannot be reached' });
    }
    const text = await response.text();
    if (path.startsWith('/health')) {
        try { return { status: response.status, json: JSON.parse(text) }; } catch { /* not JSON */ }
    }
    if (!response.ok) throw new ApiError({ status: response.status, message: fallbackMessage(response.status) });
    return { status: response.status, text };
}

function fallbackMessage(status) {
    switch (status) {
        case 401: return 'Your session has ended. Sign in again';
        case 403: return 'You are not allowed to do this';
        case 404: return 'It no longer exists; it may have been deleted in another window';
        case 502: case 503: case 504: return 'Switchboard or a server behind it is not answering right now; try again in a moment';
        default: return status >= 500 ? `Switchboard failed to handle the request (HTTP ${status}); try again, and tell an admin if it keeps happening`
            : `The request was refused (HTTP ${status})`;
    }
}

export const api = {
    get: (path) => request('GET', path),
    post: (path, body = {}) => request('POST', path, body),
    put: (path, body) => request('PUT', path, body),
    del: (path) => request('DELETE', path),
    /** Sends a file as multipart/form-data, one part named "file", as the upload endpoints read it. */
    upload: (method, path, file) => {
        const form = new FormData();
        form.append('file', file, file.name);
        return request(method, path, form);
    },
    login: (username, password) => request('POST', '/auth/token', { username, password }, { auth: false }),
};
