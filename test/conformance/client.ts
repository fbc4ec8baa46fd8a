/**
 * The conformance client: the official runner starts it once per scenario with the scenario's name in
 * MCP_CONFORMANCE_SCENARIO and the server URL as the last argument. It drives the app's own registry
 * (src/mcp) with in-memory stores, exactly as the browser does apart from storage.
 */
import { createRegistry } from '../../src/mcp/registry';
import { MemoryCatalogStore, MemorySecretStore, sha256Hex } from '../fakes/memory-stores';

const url = process.argv[process.argv.length - 1] ?? '';
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const log = (...parts: unknown[]) => console.error(`[conformance client: ${scenario}]`, ...parts);

/** The tool each scenario expects a call to, with its arguments. */
const SCENARIO_CALLS: Record<string, { tool: string; args: Record<string, unknown> }> = {
  tools_call: { tool: 'add_numbers', args: { a: 5, b: 3 } },
  'elicitation-sep1034-client-defaults': { tool: 'test_client_elicitation_defaults', args: {} },
  'sse-retry': { tool: 'test_reconnection', args: {} },
};

async function main(): Promise<number> {
  const registry = createRegistry({
    profileId: 'conformance',
    appOrigin: 'http://127.0.0.1',
    fetch: (input, init) => fetch(input, init),
    now: () => Date.now(),
    sha256Hex,
    secrets: new MemorySecretStore(),
    catalogs: new MemoryCatalogStore(),
    // A person would submit the form untouched: the SDK fills in the schema's defaults (SEP-1034).
    elicitation: async () => ({ action: 'accept', content: {} }),
  });
  try {
    await registry.register({ id: 'server', name: 'Conformance server', url }, 'user');
    const state = await registry.connect('server');
    if (state.status !== 'connected') {
      log('connect failed:', state.status, state.lastError?.message);
      return 1;
    }
    log('tools:', registry.tools().map((t) => t.toolName).join(', '));
    const call = SCENARIO_CALLS[scenario];
    if (call) {
      const result = await registry.callTool('server', call.tool, call.args);
      log('result:', JSON.stringify(result.content));
      if (result.isError) return 1;
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
