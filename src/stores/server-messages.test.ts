import { describe, expect, it } from 'vitest';
import { AuthRequiredError } from '../domain/mcp-errors';
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
});
