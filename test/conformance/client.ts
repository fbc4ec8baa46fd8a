/**
 * The conformance client: the official runner starts it once per scenario with the scenario's name in
 * MCP_CONFORMANCE_SCENARIO and the server URL as the last argument. It drives the app's own registry
 * (src/mcp) with in-memory stores, exactly as the browser does apart from storage and the one step a
 * person takes: following the authorization URL (here a fetch that reads the redirect).
 */
import { checkAnswer, initialValues, parseElicitationSchema } from '../../src/domain/elicitation-form';
import type { SignInCallback } from '../../src/mcp/registry';
import { OAUTH_SLOTS } from '../../src/mcp/oauth-provider';
import { createTestRegistry } from '../fakes/test-registry';

const url = process.argv[process.argv.length - 1] ?? '';
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as {
  client_id?: string;
  client_secret?: string;
};
const log = (...parts: unknown[]) => console.error(`[conformance client: ${scenario}]`, ...parts);
const MAX_SIGN_INS = 3;

/** The tool each scenario expects a call to, with its arguments. */
const SCENARIO_CALLS: Record<string, { tool: string; args: Record<string, unknown> }> = {
  tools_call: { tool: 'add_numbers', args: { a: 5, b: 3 } },
  'elicitation-sep1034-client-defaults': { tool: 'test_client_elicitation_defaults', args: {} },
  'sse-retry': { tool: 'test_reconnection', args: {} },
};

/** Stands in for the person: follows the authorization URL and reads the code from the redirect. */
const callbacks: SignInCallback[] = [];
async function approveInBrowser(serverId: string, authorizationUrl: URL): Promise<void> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (!location) throw new Error(`authorization endpoint answered ${response.status} without a redirect`);
  const back = new URL(location);
  callbacks.push({
    state: back.searchParams.get('state') ?? '',
    ...(back.searchParams.get('code') ? { code: back.searchParams.get('code')! } : {}),
  });
  log('sign-in needed for', serverId);
}

async function main(): Promise<number> {
  const isAuth = scenario.startsWith('auth/');
  const { registry, secrets } = createTestRegistry({
    appOrigin: 'http://localhost:8090',
    // A person submits the form untouched: it starts with the schema's defaults (SEP-1034), and sends them.
    elicitation: async (request) => {
      const fields = parseElicitationSchema('requestedSchema' in request ? request.requestedSchema : undefined);
      if (!fields.ok) return { action: 'decline' };
      const answer = checkAnswer(fields.value, initialValues(fields.value));
      return 'content' in answer ? { action: 'accept', content: answer.content } : { action: 'decline' };
    },
    oauth: {
      settings: {
        redirectUrl: 'http://localhost:8090/oauth/callback',
        clientName: 'MCP Agent (conformance)',
        clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
      },
      onSignInNeeded: approveInBrowser,
    },
  });
  try {
    const auth = isAuth
      ? { kind: 'oauth' as const, ...(context.client_id ? { clientId: context.client_id } : {}) }
      : { kind: 'none' as const };
    await registry.register({ id: 'server', name: 'Conformance server', url, auth }, 'user');
    if (context.client_secret)
      await secrets.put(
        { profileId: 'profile-1', owner: 'server', slot: OAUTH_SLOTS.clientSecret },
        context.client_secret,
      );

    /** Completes the latest sign-in the way the callback page would; undefined when there is none or it failed. */
    const completeLatest = async () => {
      const latest = callbacks.splice(0).pop();
      if (!latest) return undefined;
      return registry.completeSignIn(latest).catch((error: unknown) => void log('sign-in failed:', error));
    };

    let state = await registry.connect('server');
    for (let attempt = 0; state.status === 'needs-auth' && attempt < MAX_SIGN_INS; attempt++) {
      const signedIn = await completeLatest();
      if (!signedIn) break;
      state = signedIn.state;
    }
    if (state.status !== 'connected') {
      log('connect failed:', state.status, state.lastError?.message);
      return 1;
    }
    const tools = registry.tools(['server']);
    log('tools:', tools.map((t) => t.toolName).join(', '));
    const call = SCENARIO_CALLS[scenario] ?? (isAuth && tools[0] ? { tool: tools[0].toolName, args: {} } : undefined);
    if (call) {
      let result = await registry.callTool('server', call.tool, call.args);
      for (let attempt = 0; result.failure?.kind === 'auth-required' && attempt < MAX_SIGN_INS; attempt++) {
        if (!(await completeLatest())) break; // Step-up: the server asked for more scopes.
        result = await registry.callTool('server', call.tool, call.args);
      }
      log('result:', JSON.stringify(result.content));
      if (result.failure) return 1;
    }
    return 0;
  } finally {
    await registry.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log('crashed:', error);
    process.exit(1);
  },
);
