// The test app with the SDK-built test MCP server added as "Calc" (id calc) through the servers manager, every tool
// sent with each call: the setup of the turn tests that call its tools (add, slow, …).
import {
  bindServerActions,
  createServersStore,
  EMPTY_SERVER_FORM,
  type ServerActions,
} from '../../src/stores/servers-store';
import { startTestMcpServer, type TestMcpServer } from '../fixtures/test-mcp-server';
import { startTestApp, type TestApp } from './test-app';

export interface CalcApp {
  readonly server: TestMcpServer;
  readonly app: TestApp;
  /** The servers manager's actions over the app's registry and storage. */
  readonly actions: ServerActions;
  /** Closes the app, then stops the server. */
  close(): Promise<void>;
}

/** The servers manager's actions over a test app's registry, storage and profile. */
export function testServerActions(app: TestApp): ServerActions {
  return bindServerActions(createServersStore(app.registry), {
    registry: app.registry,
    storage: app.opened.storage,
    profileId: app.profile.id,
  });
}

/** Starts the test MCP server and the test app (API key stored, tool search deferring nothing) and adds the server as Calc. */
export async function startCalcApp(): Promise<CalcApp> {
  const [server, app] = await Promise.all([
    startTestMcpServer(),
    startTestApp({ apiKey: 'sk-ant-test-key', toolSearch: { deferral: 'never' } }),
  ]);
  const actions = testServerActions(app);
  await actions.add({ ...EMPTY_SERVER_FORM, name: 'Calc', url: server.url });
  return {
    server,
    app,
    actions,
    async close() {
      await app.close();
      await server.stop();
    },
  };
}
