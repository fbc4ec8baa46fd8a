import type { Logger } from '../domain/logger';
import { OAuthFlowError } from '../domain/mcp-errors';
import type { ServerConfig } from '../domain/server-config';
import type { ServerState } from '../domain/server-status';
import { guardedFetch, NetworkFailure, type FetchLike } from './network';
import { fetchFor } from './relay-client';
import { sameIssuer, type WritableSecretStore } from './oauth-provider';
import { OAuthSession, type OAuthSessionDeps } from './oauth-session';

/** OAuth as the registry is given it. */
export interface RegistryOAuth extends Omit<OAuthSessionDeps, 'profileId' | 'secrets' | 'now' | 'onAuthorizationUrl'> {
  readonly secrets: WritableSecretStore;
  /** A non-interactive connect found that the server needs a sign-in; `url` is where it would start. */
  readonly onSignInNeeded?: (serverId: string, url: URL) => void | Promise<void>;
}

/** What the OAuth callback page received. */
export interface SignInCallback {
  readonly state: string;
  readonly code?: string;
  readonly error?: string;
  readonly errorDescription?: string;
  /** RFC 9207: the authorization server that sent the response, when it says. */
  readonly iss?: string;
}

/** The registry's side of sign-in: its servers, and connecting one. */
export interface SignInHost {
  readonly profileId: string;
  readonly fetch: FetchLike;
  /** The CORS relay's URL; OAuth requests of a server routed through it go through it too. */
  relayUrl(): string | undefined;
  readonly now: () => number;
  readonly logger?: Logger;
  configOf(serverId: string): ServerConfig | undefined;
  serverIds(): Iterable<string>;
  connect(serverId: string): Promise<ServerState>;
  disconnect(serverId: string): Promise<void>;
}

/**
 * RFC 9207 (OAuth mix-up): the response must come from the authorization server the sign-in was sent to (kept when the
 * person was sent there, from the address discovery used, not from what its metadata claims). A response naming
 * another one is refused, and so is one naming none when that server's metadata promises to name itself.
 */
async function issuerMismatch(
  session: OAuthSession,
  serverName: string,
  callback: SignInCallback,
): Promise<string | undefined> {
  const pending = await session.provider.pendingIssuer();
  if (!pending) return undefined; // Nothing was discovered for this sign-in: nothing to compare with.
  if (callback.iss !== undefined) {
    return sameIssuer(callback.iss, pending.issuer)
      ? undefined
      : `The sign-in answer for ${serverName} says it comes from ${callback.iss}, but the sign-in was sent to ${pending.issuer}, so it was refused (another site may be passing off its own sign-in as this one). Sign in again.`;
  }
  return pending.namesItself
    ? `The sign-in answer for ${serverName} does not say which authorization server sent it, though ${pending.issuer} always does, so it was refused (another site may be passing off its own sign-in as this one). Sign in again.`
    : undefined;
}

/** Sign-ins in a row that end without a working connection before we stop sending the person back (step-up loops). */
export const MAX_FAILED_SIGN_INS = 2;

/** OAuth sessions of the registry's servers, and the interactive sign-in around them. */
export class SignInFlows {
  private readonly sessions = new Map<string, { config: ServerConfig; session: OAuthSession }>();
  private readonly navigators = new Map<string, (url: URL) => void | Promise<void>>();
  private readonly failedSignIns = new Map<string, number>();

  constructor(
    private readonly oauth: RegistryOAuth | undefined,
    private readonly host: SignInHost,
  ) {}

  /** The session of an OAuth server (rebuilt when its config changed), or undefined for other servers. */
  sessionFor(serverId: string): OAuthSession | undefined {
    const config = this.host.configOf(serverId);
    const oauth = this.oauth;
    if (!oauth || !config || config.auth.kind !== 'oauth') return undefined;
    const known = this.sessions.get(serverId);
    if (known?.config === config) return known.session;
    const session = new OAuthSession(config, {
      ...oauth,
      profileId: this.host.profileId,
      now: this.host.now,
      ...(this.host.logger ? { logger: this.host.logger } : {}),
      onAuthorizationUrl: async (id, url, isInteractive) => {
        const navigate = this.navigators.get(id);
        if (isInteractive && navigate) await navigate(url);
        else if ((this.failedSignIns.get(id) ?? 0) < MAX_FAILED_SIGN_INS) await oauth.onSignInNeeded?.(id, url);
      },
    });
    this.sessions.set(serverId, { config, session });
    return session;
  }

  /** Starts an interactive sign-in; `navigate` receives the authorization URL. */
  async signIn(serverId: string, navigate: (url: URL) => void | Promise<void>): Promise<'redirected' | ServerState> {
    const config = this.host.configOf(serverId);
    const session = this.sessionFor(serverId);
    if (!config || !session) throw new OAuthFlowError(`The server "${serverId}" does not use OAuth.`);
    this.failedSignIns.delete(serverId); // The person asked: start counting again.
    this.navigators.set(serverId, navigate);
    try {
      if ((await session.begin(this.authFetch(config))) === 'REDIRECT') return 'redirected';
    } catch (error) {
      throw new OAuthFlowError(`Sign-in to ${config.name} could not start: ${messageOf(error)}`);
    } finally {
      this.navigators.delete(serverId);
    }
    return this.host.connect(serverId);
  }

  /** Finishes a sign-in from the callback: checks the state, exchanges the code, connects. */
  async complete(callback: SignInCallback): Promise<{ serverId: string; state: ServerState }> {
    let serverId: string | undefined;
    for (const id of this.host.serverIds()) {
      if (await this.sessionFor(id)?.isPendingState(callback.state)) serverId = id;
    }
    const config = serverId === undefined ? undefined : this.host.configOf(serverId);
    const session = serverId === undefined ? undefined : this.sessionFor(serverId);
    if (serverId === undefined || !config || !session) {
      throw new OAuthFlowError(
        'This sign-in response does not belong to any sign-in in progress (its state does not match). Start the sign-in again.',
      );
    }
    if ((this.failedSignIns.get(serverId) ?? 0) >= MAX_FAILED_SIGN_INS) {
      await session.provider.clearPending();
      throw new OAuthFlowError(
        `${config.name} keeps refusing access after sign-in (it asks for more permissions each time). Check the account's permissions, then sign in again.`,
      );
    }
    const mixUp = await issuerMismatch(session, config.name, callback);
    if (mixUp) {
      await session.provider.clearPending();
      throw new OAuthFlowError(mixUp);
    }
    if (callback.error || !callback.code) {
      await session.provider.clearPending();
      throw new OAuthFlowError(
        `Sign-in to ${config.name} did not complete: ${callback.errorDescription ?? callback.error ?? 'no authorization code was returned'}.`,
      );
    }
    try {
      await session.complete(callback.code, this.authFetch(config));
    } catch (error) {
      throw new OAuthFlowError(
        error instanceof NetworkFailure
          ? `Sign-in to ${config.name} failed at the token endpoint: ${new URL(error.url).origin} gave this page no answer there; it is down, or its token endpoint does not answer CORS (some servers allow CORS on /mcp only). Switch on "Route through relay" for this server, then sign in again.`
          : `Sign-in to ${config.name} failed at the token endpoint: ${messageOf(error)}`,
      );
    }
    await this.host.disconnect(serverId); // Reconnect with the new tokens.
    const state = await this.host.connect(serverId);
    this.failedSignIns.set(serverId, state.status === 'connected' ? 0 : (this.failedSignIns.get(serverId) ?? 0) + 1);
    return { serverId, state };
  }

  /** Forgets a server's tokens and client registration. */
  async signOut(serverId: string): Promise<void> {
    await this.host.disconnect(serverId);
    await this.sessionFor(serverId)?.signOut();
  }

  forget(serverId: string): void {
    this.sessions.delete(serverId);
    this.failedSignIns.delete(serverId);
  }

  /** A fetch for OAuth requests outside a connection: bearer tokens never leave the server's origin. */
  private authFetch(config: ServerConfig): FetchLike {
    return guardedFetch(fetchFor(config.viaRelay, this.host.fetch, this.host.relayUrl(), this.host.logger), {
      serverOrigin: new URL(config.url).origin,
      secretHeaders: [],
      onNetworkFailure: () => undefined,
    });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
