import { logFailure, silentLogger, type Logger } from '../domain/logger';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { ServerConfig } from '../domain/server-config';
import type { SecretStore } from './server-headers';

/** Vault slots of one server's OAuth state; every one of them is encrypted at rest. */
export const OAUTH_SLOTS = {
  tokens: 'oauth-tokens',
  client: 'oauth-client',
  clientSecret: 'oauth-client-secret',
  verifier: 'oauth-verifier',
  state: 'oauth-state',
  discovery: 'oauth-discovery',
  /** Set while a sign-in the person started waits for its callback. */
  interactive: 'oauth-interactive',
  /** The issuer the answer of the sign-in in progress must name (RFC 9207), kept when the person was sent there. */
  issuer: 'oauth-issuer',
} as const;

/** The authorization server a sign-in was sent to, and whether its answer must name it (RFC 9207). */
export interface PendingIssuer {
  readonly issuer: string;
  readonly namesItself: boolean;
}

/** Two issuer identifiers are the same (as URLs, a trailing slash aside, as the SDK compares them). */
export function sameIssuer(a: string, b: string): boolean {
  let [x, y] = [a, b];
  try {
    [x, y] = [new URL(a).href, new URL(b).href];
  } catch {
    // Not two URLs: compared as written.
  }
  return x === y || x.replace(/\/$/, '') === y.replace(/\/$/, '');
}

/** What the deployment decides about OAuth: where the authorization server sends the person back, who we are. */
export interface OAuthSettings {
  readonly redirectUrl: string;
  /** A client ID metadata document URL (https), used when the authorization server supports them. */
  readonly clientMetadataUrl?: string;
  readonly clientName: string;
}

/** The vault as OAuth needs it: it also writes and deletes. */
export interface WritableSecretStore extends SecretStore {
  put(ref: { profileId: string; owner: string; slot: string }, value: string): Promise<void>;
  delete(ref: { profileId: string; owner: string; slot: string }): Promise<void>;
}

interface StoredTokens {
  readonly tokens: OAuthTokens;
  /** When they were saved, to know when the access token expires. */
  readonly savedAt: number;
}

export interface OAuthProviderDeps {
  readonly profileId: string;
  readonly secrets: WritableSecretStore;
  readonly settings: OAuthSettings;
  readonly now: () => number;
  readonly newState: () => string;
  /** The SDK built an authorization URL: send the person there (popup), or note that sign-in is needed. */
  readonly onRedirect: (url: URL) => void | Promise<void>;
  /** For a sign-in the person asked for: act as if no tokens were stored, so the SDK authorizes afresh. */
  readonly ignoresStoredTokens?: boolean;
  /** Where an unreadable slot is reported (silent when omitted). */
  readonly logger?: Logger;
}

/**
 * The SDK's OAuthClientProvider for one server, backed by the vault: tokens, client registration, PKCE
 * verifier, state and discovery results are all stored encrypted, none in localStorage.
 */
export class VaultOAuthProvider implements OAuthClientProvider {
  constructor(
    private readonly config: ServerConfig,
    private readonly deps: OAuthProviderDeps,
  ) {}

  get redirectUrl(): string {
    return this.deps.settings.redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    return this.deps.settings.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.config.auth.kind === 'oauth' ? this.config.auth.scopes : undefined;
    return {
      client_name: this.deps.settings.clientName,
      redirect_uris: [this.deps.settings.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(scopes?.length ? { scope: scopes.join(' ') } : {}),
    };
  }

  async state(): Promise<string> {
    const state = this.deps.newState();
    if (await this.keepsPersonsSignIn()) return state;
    await this.write(OAUTH_SLOTS.state, state);
    return state;
  }

  /** A background connect must not replace the state and verifier of a sign-in the person is in the middle of. */
  private async keepsPersonsSignIn(): Promise<boolean> {
    if (this.deps.ignoresStoredTokens) return false;
    return (await this.read(OAUTH_SLOTS.interactive).catch(this.unreadable(OAUTH_SLOTS.interactive))) !== undefined;
  }

  /** The state of the sign-in in progress, to match the callback against. */
  pendingState(): Promise<string | undefined> {
    return this.read(OAUTH_SLOTS.state);
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    if (this.config.auth.kind === 'oauth' && this.config.auth.clientId) {
      const secret = await this.read(OAUTH_SLOTS.clientSecret);
      return { client_id: this.config.auth.clientId, ...(secret ? { client_secret: secret } : {}) };
    }
    return this.readJson<OAuthClientInformationMixed>(OAUTH_SLOTS.client, (v) => typeof v.client_id === 'string');
  }

  async saveClientInformation(information: OAuthClientInformationMixed): Promise<void> {
    if (this.config.auth.kind === 'oauth' && this.config.auth.clientId) return; // Pre-registered: nothing to learn.
    await this.write(OAUTH_SLOTS.client, JSON.stringify(information));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    if (this.deps.ignoresStoredTokens) return undefined;
    return (await this.storedTokens())?.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const stored: StoredTokens = { tokens, savedAt: this.deps.now() };
    await this.write(OAUTH_SLOTS.tokens, JSON.stringify(stored));
  }

  /** Milliseconds until the access token expires; undefined when there is none or it does not say. */
  async expiresInMs(): Promise<number | undefined> {
    const stored = await this.storedTokens();
    const seconds = stored?.tokens.expires_in;
    return stored && typeof seconds === 'number' ? stored.savedAt + seconds * 1000 - this.deps.now() : undefined;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    const expected = await this.expectedIssuer();
    if (expected && !(await this.keepsPersonsSignIn())) await this.write(OAUTH_SLOTS.issuer, JSON.stringify(expected));
    await this.deps.onRedirect(url);
  }

  /**
   * The issuer this sign-in's answer must name: the authorization server's address that discovery used (RFC 8414:
   * metadata naming another issuer than the address it was read from must not be used, or a server could send the
   * person to an honest authorization server while the code goes to its own token endpoint). Undefined when nothing
   * was discovered.
   */
  private async expectedIssuer(): Promise<PendingIssuer | undefined> {
    const discovery = await this.discoveryState();
    if (!discovery) return undefined;
    const metadata = discovery.authorizationServerMetadata;
    const namesItself =
      (metadata as Record<string, unknown> | undefined)?.authorization_response_iss_parameter_supported === true;
    // Without protected-resource metadata (the 2025-03-26 fallback) the address is the server's own origin, not one
    // the metadata was named by: there its issuer is taken as it says (as that spec's servers expect).
    if (!discovery.resourceMetadata)
      return { issuer: metadata?.issuer ?? discovery.authorizationServerUrl, namesItself };
    if (metadata && !sameIssuer(metadata.issuer, discovery.authorizationServerUrl))
      throw new Error(
        `the authorization server's metadata names another issuer (${metadata.issuer}) than the address it was read from (${discovery.authorizationServerUrl}), and such metadata must not be used (RFC 8414)`,
      );
    return { issuer: discovery.authorizationServerUrl, namesItself };
  }

  /** The issuer the answer of the sign-in in progress must name, kept when the person was sent to sign in. */
  pendingIssuer(): Promise<PendingIssuer | undefined> {
    return this.readJson<PendingIssuer>(OAUTH_SLOTS.issuer, (v) => typeof v.issuer === 'string');
  }

  async saveCodeVerifier(verifier: string): Promise<void> {
    if (await this.keepsPersonsSignIn()) return;
    await this.write(OAUTH_SLOTS.verifier, verifier);
    if (this.deps.ignoresStoredTokens) await this.write(OAUTH_SLOTS.interactive, '1');
  }

  async codeVerifier(): Promise<string> {
    const verifier = await this.read(OAUTH_SLOTS.verifier);
    if (!verifier)
      throw new Error(
        'No sign-in is in progress for this server (the PKCE verifier is missing). Start the sign-in again.',
      );
    return verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.write(OAUTH_SLOTS.discovery, JSON.stringify(state));
  }

  discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return this.readJson<OAuthDiscoveryState>(
      OAUTH_SLOTS.discovery,
      (v) => typeof v.authorizationServerUrl === 'string',
    );
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    const slots =
      scope === 'all'
        ? [
            OAUTH_SLOTS.tokens,
            OAUTH_SLOTS.client,
            OAUTH_SLOTS.verifier,
            OAUTH_SLOTS.state,
            OAUTH_SLOTS.discovery,
            OAUTH_SLOTS.interactive,
            OAUTH_SLOTS.issuer,
          ]
        : [
            {
              client: OAUTH_SLOTS.client,
              tokens: OAUTH_SLOTS.tokens,
              verifier: OAUTH_SLOTS.verifier,
              discovery: OAUTH_SLOTS.discovery,
            }[scope],
          ];
    await Promise.all(slots.map((slot) => this.deps.secrets.delete(this.ref(slot))));
  }

  /** Forgets the sign-in in progress (after it completed or failed). */
  async clearPending(): Promise<void> {
    await Promise.all(
      [OAUTH_SLOTS.verifier, OAUTH_SLOTS.state, OAUTH_SLOTS.interactive, OAUTH_SLOTS.issuer].map((slot) =>
        this.deps.secrets.delete(this.ref(slot)),
      ),
    );
  }

  private storedTokens(): Promise<StoredTokens | undefined> {
    return this.readJson<StoredTokens>(
      OAUTH_SLOTS.tokens,
      (v) =>
        typeof v.savedAt === 'number' &&
        typeof (v.tokens as { access_token?: unknown } | undefined)?.access_token === 'string',
    );
  }

  private ref(slot: string) {
    return { profileId: this.deps.profileId, owner: this.config.id, slot };
  }

  private read(slot: string): Promise<string | undefined> {
    return this.deps.secrets.get(this.ref(slot));
  }

  /** A slot that cannot be read (a locked vault) counts as absent; the failure is only logged. */
  private unreadable(slot: string) {
    return logFailure(this.deps.logger ?? silentLogger, 'An OAuth slot could not be read; treated as absent', {
      serverId: this.config.id,
      slot,
    });
  }

  private write(slot: string, value: string): Promise<void> {
    return this.deps.secrets.put(this.ref(slot), value);
  }

  /** Reads a JSON slot; anything unreadable counts as absent (the flow then starts over). */
  private async readJson<T>(
    slot: string,
    isValid: (value: Record<string, unknown>) => boolean,
  ): Promise<T | undefined> {
    const raw = await this.read(slot).catch(this.unreadable(slot));
    if (raw === undefined) return undefined;
    try {
      const value: unknown = JSON.parse(raw);
      return typeof value === 'object' && value !== null && isValid(value as Record<string, unknown>)
        ? (value as T)
        : undefined;
    } catch {
      return undefined;
    }
  }
}
