import { logFailure, silentLogger, type Logger } from '../domain/logger';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { ServerConfig } from '../domain/server-config';
import type { Locks } from '../platform/locks';
import type { FetchLike } from './network';
import { VaultOAuthProvider, type OAuthSettings, type WritableSecretStore } from './oauth-provider';

/** Refresh this long before the access token expires (or at half its lifetime, for short-lived tokens). */
const REFRESH_MARGIN_MS = 60_000;

export interface OAuthSessionDeps {
  readonly profileId: string;
  readonly secrets: WritableSecretStore;
  readonly settings: OAuthSettings;
  readonly locks: Locks;
  readonly now: () => number;
  readonly newState: () => string;
  /** An authorization URL is ready; `isInteractive` when the person asked to sign in. */
  readonly onAuthorizationUrl: (serverId: string, url: URL, isInteractive: boolean) => void | Promise<void>;
  /** Where failures the session goes on past are reported (silent when omitted). */
  readonly logger?: Logger;
}

/**
 * One OAuth server's session: the vault-backed provider, refresh before expiry and on a 401 under a
 * cross-tab lock (so rotating refresh tokens are never spent twice), and the sign-in steps.
 */
export class OAuthSession {
  readonly provider: VaultOAuthProvider;

  constructor(
    private readonly config: ServerConfig,
    private readonly deps: OAuthSessionDeps,
  ) {
    this.provider = this.makeProvider(false);
  }

  /** The connection's provider notes that a sign-in is needed; the interactive one sends the person there. */
  private makeProvider(isInteractive: boolean): VaultOAuthProvider {
    return new VaultOAuthProvider(this.config, {
      profileId: this.deps.profileId,
      secrets: this.deps.secrets,
      settings: this.deps.settings,
      now: this.deps.now,
      newState: this.deps.newState,
      onRedirect: (url) => this.deps.onAuthorizationUrl(this.config.id, url, isInteractive),
      ignoresStoredTokens: isInteractive,
      ...(this.deps.logger ? { logger: this.deps.logger } : {}),
    });
  }

  private get lockName(): string {
    return `mcp-oauth:${this.deps.profileId}:${this.config.id}`;
  }

  /** Refreshes the access token when it expires within a minute; waits for another tab doing the same. */
  async ensureFresh(fetchFn: FetchLike): Promise<void> {
    if (!(await this.isExpiring())) return;
    await this.deps.locks.request(this.lockName, async () => {
      const tokens = await this.provider.tokens();
      if (!(await this.isExpiring()) || !tokens?.refresh_token) return; // Another tab refreshed meanwhile.
      await auth(this.provider, { serverUrl: this.config.url, fetchFn });
    });
  }

  private async isExpiring(): Promise<boolean> {
    const [expiresIn, tokens] = await Promise.all([this.provider.expiresInMs(), this.provider.tokens()]);
    if (expiresIn === undefined || tokens?.expires_in === undefined) return false;
    return expiresIn <= Math.min(REFRESH_MARGIN_MS, (tokens.expires_in * 1000) / 2);
  }

  /**
   * After a 401 for `usedToken`: the current access token when another tab refreshed already, else a
   * refreshed one, else undefined (the person has to sign in again).
   */
  async refreshAfterRejection(usedToken: string, fetchFn: FetchLike): Promise<string | undefined> {
    return this.deps.locks.request(this.lockName, async () => {
      const tokens = await this.provider.tokens();
      if (!tokens) return undefined;
      if (tokens.access_token !== usedToken) return tokens.access_token;
      if (!tokens.refresh_token) return undefined;
      try {
        const result = await auth(this.provider, { serverUrl: this.config.url, fetchFn });
        return result === 'AUTHORIZED' ? (await this.provider.tokens())?.access_token : undefined;
      } catch {
        return undefined;
      }
    });
  }

  /**
   * Starts a sign-in the person asked for: always a fresh authorization (to switch accounts or widen
   * scopes); the stored tokens keep working until the new ones arrive.
   */
  async begin(fetchFn: FetchLike): Promise<'AUTHORIZED' | 'REDIRECT'> {
    return auth(this.makeProvider(true), { serverUrl: this.config.url, fetchFn });
  }

  /** Whether a callback's state belongs to this server's sign-in in progress. */
  async isPendingState(state: string): Promise<boolean> {
    const pending = await this.provider.pendingState().catch(
      logFailure(this.deps.logger ?? silentLogger, 'The pending sign-in state could not be read', {
        serverId: this.config.id,
      }),
    );
    return pending !== undefined && pending === state;
  }

  /** Exchanges the authorization code for tokens. */
  async complete(code: string, fetchFn: FetchLike): Promise<void> {
    try {
      await auth(this.provider, { serverUrl: this.config.url, authorizationCode: code, fetchFn });
    } finally {
      await this.provider.clearPending();
    }
  }

  async signOut(): Promise<void> {
    await this.provider.invalidateCredentials('all');
  }
}

/**
 * Wraps the connection's fetch: a 401 to a request that carried our bearer token is retried once with
 * a refreshed token (see OAuthSession.refreshAfterRejection) before the SDK sees it.
 */
export function withBearerRefresh(
  base: FetchLike,
  serverOrigin: string,
  refresh: (usedToken: string) => Promise<string | undefined>,
): FetchLike {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.status !== 401) return response;
    const url = new URL(typeof input === 'string' ? input : input.href);
    const headers = new Headers(init?.headers);
    const authorization = headers.get('authorization');
    if (url.origin !== serverOrigin || !authorization?.startsWith('Bearer ')) return response;
    const fresh = await refresh(authorization.slice('Bearer '.length));
    if (!fresh || `Bearer ${fresh}` === authorization) return response;
    headers.set('authorization', `Bearer ${fresh}`);
    return base(input, { ...init, headers });
  };
}
