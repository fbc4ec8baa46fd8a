import type { AppError } from '../domain/errors';
import { AuthRequiredError, CorsBlockedError } from '../domain/mcp-errors';
import type { AuthConfig } from '../domain/server-config';

/** What the advice may point at: the person's own server has a form to change; a relay may already be set. */
export interface ErrorContext {
  /** The person added it (Edit, Route through relay); an app server's settings are its deployer's. */
  readonly isOwn: boolean;
  readonly hasRelay: boolean;
}

const RELAY_HINT =
  'A server you cannot change can be reached through a relay: set a Relay URL in Settings (npm run relay runs one), then turn on Route through relay in its form.';

/** A connection error as the person reads it, with what to check for the server's kind of authentication. */
export function describeConnectionError(
  error: AppError,
  auth: AuthConfig,
  context: ErrorContext = { isOwn: true, hasRelay: false },
): string {
  if (error.kind === 'auth-required' && auth.kind === 'headers') {
    return `The server did not accept the custom headers (${auth.headerNames.join(', ')}): check their names and values, then save or connect again.`;
  }
  // Not an error of the person's: an OAuth server waits for its first sign-in (or a new one).
  if (error instanceof AuthRequiredError && error.isBare && auth.kind === 'oauth')
    return 'This server asks you to sign in: use Sign in, which opens its sign-in page in a small window.';
  if (error instanceof AuthRequiredError && error.isBare && auth.kind === 'none' && context.isOwn)
    return 'The server requires authorization. Under Authentication, choose OAuth (sign in) if the server has a sign-in page, or the bearer token or custom headers its operator gave you.';
  if (error.kind === 'auth-required' && auth.kind === 'bearer')
    return 'The server did not accept the bearer token: check it, then save or connect again.';
  // A header the server's CORS answer does not allow makes the browser block the request before it is sent.
  const headers =
    error.kind === 'cors' && auth.kind === 'headers'
      ? ` It must also allow the custom headers ${auth.headerNames.join(', ')}.`
      : '';
  // Without a relay's check, the way on for a server the person cannot change is a relay.
  const relay =
    error instanceof CorsBlockedError && !error.diagnosis && context.isOwn && !context.hasRelay ? ` ${RELAY_HINT}` : '';
  return `${error.message}${headers}${relay}`;
}
