// The REST API client: bearer token from sessionStorage, JSON in and out, errors as ApiError.

const TOKEN_KEY = 'switchboard.token';

export class ApiError extends Error {
    constructor({ status = 0, code = '', type = '', message = '', kind = 'http' }) {
        super(message);
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
    const headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const token = session.token;
    if (auth && token) headers.Authorization = `Bearer ${token}`;
    let response;
    try {
        response = await fetch(`/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (e) {
        throw new ApiError({ kind: 'network', message: 'Switchboard cannot be reached' });
    }
    const text = await response.text();
    let json = null;
    if (text) {
        try { json = JSON.parse(text); } catch { json = null; }
    }
    if (!response.ok) {
        const error = json && json.error ? json.error : {};
        const err = new ApiError({
            status: response.status, code: error.code || '', type: error.type || '',
            message: error.message || fallbackMessage(response.status),
        });
        if (response.status === 401 && auth && token) onUnauthorized(err);
        throw err;
    }
    return json;
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
    login: (username, password) => request('POST', '/auth/token', { username, password }, { auth: false }),
};
