/** What the authorization server put on the callback URL. */
export interface CallbackParams {
  readonly state: string;
  readonly code?: string;
  readonly error?: string;
  readonly errorDescription?: string;
  /** RFC 9207: the authorization server that sent the response, when it says. */
  readonly iss?: string;
}

import { OAUTH_CALLBACK_PATH } from '../domain/oauth-client-metadata';

export { OAUTH_CALLBACK_PATH };
// The popup has no handle on the page that opened it (an authorization server's page could otherwise send that tab
// elsewhere): the callback reaches it over a same-origin channel, and the page answers so the popup knows to close.
const CHANNEL = 'mcp-agent:oauth';
const MESSAGE_TYPE = 'mcp-agent:oauth-callback';
const ACK_TYPE = 'mcp-agent:oauth-taken';
/** How long the callback page waits for the page that opened it before finishing the sign-in itself. */
const ACK_WAIT_MS = 3_000;

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
  // Still blank and of this origin: its pages to come (the authorization server's) get no window.opener. A sign-in
  // window already open on another origin cannot be touched so, and had its opener cut when it opened.
  try {
    popup.opener = null;
  } catch {
    // A SecurityError: see above.
  }
  let expectedState: string | undefined;
  let cleanup = () => undefined as void;
  const result = new Promise<CallbackParams>((resolve, reject) => {
    const channel = new BroadcastChannel(CHANNEL);
    // Only the callback of this sign-in (its state): another tab's sign-in is that tab's.
    channel.onmessage = (event: MessageEvent<unknown>) => {
      const params = asCallback(event.data, MESSAGE_TYPE);
      if (!params || expectedState === undefined || params.state !== expectedState) return;
      channel.postMessage({ type: ACK_TYPE, state: params.state });
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
      channel.close();
      win.clearInterval(poll);
    };
  });
  return {
    navigate: (url) => {
      expectedState = url.searchParams.get('state') ?? undefined;
      popup.location.assign(url.href);
    },
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
  const iss = query.get('iss');
  return {
    state,
    ...(code ? { code } : {}),
    ...(error ? { error } : {}),
    ...(description ? { errorDescription: description } : {}),
    ...(iss !== null ? { iss } : {}),
  };
}

/**
 * At the callback route: hands the parameters to the page whose sign-in popup this is. Resolves true once that page
 * took them (the popup then closes); false when no page did in time (a sign-in by full-page redirect, or its page
 * was closed), and this page finishes the sign-in itself.
 */
export function handToSignInPage(params: CallbackParams, waitMs = ACK_WAIT_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const channel = new BroadcastChannel(CHANNEL);
    const done = (isTaken: boolean) => {
      clearTimeout(timer);
      channel.close();
      resolve(isTaken);
    };
    const timer = setTimeout(() => done(false), waitMs);
    channel.onmessage = (event: MessageEvent<unknown>) => {
      if (asCallback(event.data, ACK_TYPE)?.state === params.state) done(true);
    };
    channel.postMessage({ type: MESSAGE_TYPE, ...params });
  });
}

function asCallback(data: unknown, type: string): CallbackParams | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const record = data as Record<string, unknown>;
  if (record.type !== type || typeof record.state !== 'string') return undefined;
  const str = (key: string) => (typeof record[key] === 'string' ? { [key]: record[key] } : {});
  return { state: record.state, ...str('code'), ...str('error'), ...str('errorDescription'), ...str('iss') };
}
