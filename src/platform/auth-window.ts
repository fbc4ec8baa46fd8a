/** What the authorization server put on the callback URL. */
export interface CallbackParams {
  readonly state: string;
  readonly code?: string;
  readonly error?: string;
  readonly errorDescription?: string;
}

import { OAUTH_CALLBACK_PATH } from '../domain/oauth-client-metadata';

export { OAUTH_CALLBACK_PATH };
const MESSAGE_TYPE = 'mcp-agent:oauth-callback';

/** A sign-in popup opened in a click handler (before any await, or the browser blocks it). */
export interface AuthWindow {
  navigate(url: URL): void;
  /** The callback's parameters; rejects when the person closes the window first. */
  readonly result: Promise<CallbackParams>;
  close(): void;
}

export class AuthWindowClosedError extends Error {
  constructor() {
    super('The sign-in window was closed before the sign-in finished.');
    this.name = 'AuthWindowClosedError';
  }
}

/** Opens an empty popup for a sign-in; undefined when the browser blocked it (then redirect the page instead). */
export function openAuthWindow(win: Window = window): AuthWindow | undefined {
  const popup = win.open('', 'mcp-agent-sign-in', 'popup,width=520,height=720');
  if (!popup) return undefined;
  let cleanup = () => undefined as void;
  const result = new Promise<CallbackParams>((resolve, reject) => {
    const onMessage = (event: MessageEvent<unknown>) => {
      if (event.origin !== win.location.origin || event.source !== popup) return;
      const params = asCallback(event.data);
      if (!params) return;
      cleanup();
      resolve(params);
    };
    const poll = win.setInterval(() => {
      if (popup.closed) {
        cleanup();
        reject(new AuthWindowClosedError());
      }
    }, 500);
    cleanup = () => {
      win.removeEventListener('message', onMessage);
      win.clearInterval(poll);
    };
    win.addEventListener('message', onMessage);
  });
  return {
    navigate: (url) => popup.location.assign(url.href),
    result,
    close: () => {
      cleanup();
      popup.close();
    },
  };
}

/** Reads the callback parameters when this page is the OAuth callback route. */
export function readCallback(location: Location, baseUrl: string): CallbackParams | undefined {
  if (location.pathname !== `${baseUrl}${OAUTH_CALLBACK_PATH}`) return undefined;
  const query = new URLSearchParams(location.search);
  const state = query.get('state') ?? '';
  const code = query.get('code');
  const error = query.get('error');
  const description = query.get('error_description');
  return {
    state,
    ...(code ? { code } : {}),
    ...(error ? { error } : {}),
    ...(description ? { errorDescription: description } : {}),
  };
}

/** In the popup: hands the parameters to the page that opened it. False when there is no such page. */
export function postCallbackToOpener(params: CallbackParams, win: Window = window): boolean {
  const opener = win.opener as Window | null;
  if (!opener || opener === win) return false;
  try {
    opener.postMessage({ type: MESSAGE_TYPE, ...params }, win.location.origin);
    return true;
  } catch {
    return false;
  }
}

function asCallback(data: unknown): CallbackParams | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const record = data as Record<string, unknown>;
  if (record.type !== MESSAGE_TYPE || typeof record.state !== 'string') return undefined;
  const str = (key: string) => (typeof record[key] === 'string' ? { [key]: record[key] } : {});
  return { state: record.state, ...str('code'), ...str('error'), ...str('errorDescription') };
}
