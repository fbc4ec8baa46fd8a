import { openAuthWindow, type AuthWindow } from '../platform/auth-window';

/** Opens the sign-in popup; must run synchronously in the click handler. */
export function openSignInWindow(): AuthWindow | undefined {
  return openAuthWindow(window);
}

/** The fallback when popups are blocked: the whole page goes to the authorization server and comes back. */
export function redirectPageTo(url: URL): void {
  window.location.assign(url.href);
}
