import { describe, expect, it } from 'vitest';
import { AuthRequiredError, CorsBlockedError } from '../domain/mcp-errors';
import { describeConnectionError } from './server-messages';

describe('a connection error as the servers manager words it', () => {
  it('tells an OAuth server’s person to sign in, not to add a token; a 401 with more to say keeps its words', () => {
    const oauth = { kind: 'oauth' } as const;
    expect(describeConnectionError(new AuthRequiredError(), oauth)).toBe(
      'This server asks you to sign in: use Sign in, which opens its sign-in page in a small window.',
    );
    const refused = new AuthRequiredError(
      'The server refused access (HTTP 403). Check the credentials and their permissions.',
    );
    expect(describeConnectionError(refused, oauth)).toBe(refused.message);
    // Set to no authentication: the message names the choices of the Authentication field.
    expect(describeConnectionError(new AuthRequiredError(), { kind: 'none' })).toBe(
      'The server requires authorization. Under Authentication, choose OAuth (sign in) if the server has a sign-in page, or the bearer token or custom headers its operator gave you.',
    );
    expect(describeConnectionError(new AuthRequiredError(), { kind: 'bearer' })).toBe(
      'The server did not accept the bearer token: check it, then save or connect again.',
    );
  });

  it('points at what the person can change: the form of their own server, a relay when none is set', () => {
    const none = { kind: 'none' } as const;
    // An app server has no form: its 401 keeps the plain words.
    expect(describeConnectionError(new AuthRequiredError(), none, { isOwn: false, hasRelay: false })).toBe(
      'The server requires authorization. Add a token or sign in, then connect again.',
    );
    const cors = new CorsBlockedError('http://127.0.0.1:5173', 'http://127.0.0.1:9999/mcp');
    const hint =
      ' A server you cannot change can be reached through a relay: set a Relay URL in Settings (npm run relay runs one), then turn on Route through relay in its form.';
    expect(describeConnectionError(cors, none, { isOwn: true, hasRelay: false })).toBe(`${cors.message}${hint}`);
    expect(describeConnectionError(cors, none, { isOwn: true, hasRelay: true })).toBe(cors.message);
    expect(describeConnectionError(cors, none, { isOwn: false, hasRelay: false })).toBe(cors.message);
  });
});
