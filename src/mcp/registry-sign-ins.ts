import { loadConnectionKit, type ConnectionKit } from './lazy-kit';
import type { Registry } from './registry-types';
import type { RegistryOAuth, SignInFlows, SignInHost } from './sign-in';

/** The registry's OAuth sign-ins: one set of flows, made with the connection code when first needed. */
export class RegistrySignIns {
  private flows?: SignInFlows;

  constructor(
    private readonly oauth: RegistryOAuth | undefined,
    private readonly host: SignInHost,
  ) {}

  /** The sign-in flows, made with the loaded connection code on first use. */
  of(kit: ConnectionKit): SignInFlows {
    return (this.flows ??= new kit.SignInFlows(this.oauth, this.host));
  }

  /** Forgets a removed server's sign-in state (nothing to forget before any flow was made). */
  forget(serverId: string): void {
    this.flows?.forget(serverId);
  }

  /** The registry's sign-in actions; each loads the connection code first. */
  actions(): Pick<Registry, 'signIn' | 'completeSignIn' | 'signOut'> {
    const signIns = async () => this.of(await loadConnectionKit());
    return {
      /**
       * Starts an interactive OAuth sign-in: `navigate` receives the authorization URL (open it in the popup
       * the click opened, or redirect the page). Resolves once the person was sent there, or to the new
       * state when stored credentials sufficed.
       */
      signIn: async (serverId, navigate) => (await signIns()).signIn(serverId, navigate),

      /** Finishes a sign-in from the callback's query: checks the state, exchanges the code, connects. */
      completeSignIn: async (callback) => (await signIns()).complete(callback),

      /** Forgets a server's OAuth tokens and client registration. */
      signOut: async (serverId) => (await signIns()).signOut(serverId),
    };
  }
}
