import type { AppError } from '../domain/errors';
import { AuthRequiredError } from '../domain/mcp-errors';
import type { AuthConfig } from '../domain/server-config';

/** A connection error as the person reads it, with what to check for the server's kind of authentication. */
export function describeConnectionError(error: AppError, auth: AuthConfig): string {
  if (error.kind === 'auth-required' && auth.kind === 'headers') {
    return `The server did not accept the custom headers (${auth.headerNames.join(', ')}): check their names and values, then save or connect again.`;
  }
  // Not an error of the person's: an OAuth server waits for its first sign-in (or a new one).
  if (error instanceof AuthRequiredError && error.isBare && auth.kind === 'oauth')
    return 'This server asks you to sign in: use Sign in, which opens its sign-in page in a small window.';
  if (error instanceof AuthRequiredError && error.isBare && auth.kind === 'none')
    return 'The server requires authorization. Under Authentication, choose OAuth (sign in) if the server has a sign-in page, or the bearer token or custom headers its operator gave you.';
  if (error.kind === 'auth-required' && auth.kind === 'bearer')
    return 'The server did not accept the bearer token: check it, then save or connect again.';
  // A header the server's CORS answer does not allow makes the browser block the request before it is sent.
  if (error.kind === 'cors' && auth.kind === 'headers')
    return `${error.message} It must also allow the custom headers ${auth.headerNames.join(', ')}.`;
  return error.message;
}
