/** Test page: the real MCP registry and storage in real Chromium, driven by test/e2e/faults/registry.e2e.test.ts. */
import { createServices } from '../../../src/app/services';
import { BEARER_SLOT } from '../../../src/domain/server-config';
import type { ServerState } from '../../../src/domain/server-status';
import type { ToolCallResult } from '../../../src/domain/tool-result';
import { createBrowserEnv } from '../../../src/platform/environment';

export interface RegistryHarness {
  addServer(id: string, url: string, bearer?: string, viaRelay?: boolean): Promise<ServerState>;
  /** Adds an OAuth server and connects it (it asks for a sign-in). */
  addOAuthServer(id: string, url: string, viaRelay: boolean): Promise<string>;
  /** Starts a sign-in and returns the authorization URL the person would be sent to. */
  signInUrl(id: string): Promise<string>;
  /** Finishes a sign-in with the callback's parameters: the resulting status, or the error's message. */
  completeSignIn(params: { state: string; code: string }): Promise<string>;
  /** Sets the CORS relay the registry uses (issue #19). */
  setRelay(url: string | undefined): Promise<void>;
  call(serverId: string, tool: string, args: Record<string, unknown>): Promise<ToolCallResult>;
  toolNames(serverId: string): string[];
  stateOf(serverId: string): { status: string; error?: string; kind?: string };
}

declare global {
  interface Window {
    registryHarness?: RegistryHarness;
  }
}

const services = await createServices(createBrowserEnv(), () => undefined);
const profile = await services.storage.profiles.ensureActive();
const registry = services.createRegistry(profile.id, {});

window.registryHarness = {
  async addServer(id, url, bearer, viaRelay = false) {
    if (bearer) await services.storage.vault.put({ profileId: profile.id, owner: id, slot: BEARER_SLOT }, bearer);
    await registry.register(
      { id, name: id, url, auth: bearer ? { kind: 'bearer' } : { kind: 'none' }, viaRelay },
      'user',
    );
    const state = await registry.connect(id);
    return { status: state.status, ...(state.transport ? { transport: state.transport } : {}) };
  },
  setRelay: (url) => registry.setRelayUrl(url),
  async addOAuthServer(id, url, viaRelay) {
    await registry.register({ id, name: id, url, auth: { kind: 'oauth' }, viaRelay }, 'user');
    return (await registry.connect(id)).status;
  },
  async signInUrl(id) {
    let target = '';
    await registry.signIn(id, (url) => void (target = url.href));
    return target;
  },
  async completeSignIn(params) {
    try {
      return (await registry.completeSignIn(params)).state.status;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  },
  call: (serverId, tool, args) => registry.callTool(serverId, tool, args),
  toolNames: (serverId) => registry.tools([serverId]).map((t) => t.toolName),
  stateOf(serverId) {
    const state = registry.get(serverId)?.state;
    return {
      status: state?.status ?? 'unknown',
      ...(state?.lastError ? { error: state.lastError.message, kind: state.lastError.kind } : {}),
    };
  },
};
