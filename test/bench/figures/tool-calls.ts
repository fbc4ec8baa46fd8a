// Tool calls: the app's registry (src/mcp, as the page uses it, with in-memory stores) against the bare SDK Client
// calling the same tool of the same server-everything on 127.0.0.1, interleaved call by call.
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTestRegistry } from '../../fakes/test-registry';
import { startServerEverything } from '../../fixtures/server-everything';
import { median, p95, type Row } from '../report';

const WARMUP = 30;

/** Median time per `echo` call through the registry and through the bare SDK client. */
export async function measureToolCalls(calls = 300): Promise<Row[]> {
  const server = await startServerEverything({ mode: 'streamableHttp' });
  const { registry } = createTestRegistry();
  const bare = new Client({ name: 'bench-bare', version: '1.0.0' });
  try {
    await registry.register({ id: 'everything', name: 'Everything', url: server.url }, 'user');
    const state = await registry.connect('everything');
    if (state.status !== 'connected')
      throw new Error(`the registry did not connect to server-everything: ${state.status}`);
    await bare.connect(new StreamableHTTPClientTransport(new URL(server.url)));

    const args = { message: 'benchmark call' };
    const viaApp = async () => {
      const result = await registry.callTool('everything', 'echo', args);
      if (result.isError) throw new Error('echo failed through the registry');
    };
    const viaSdk = async () => {
      const result = await bare.callTool({ name: 'echo', arguments: args });
      if (result.isError) throw new Error('echo failed through the SDK client');
    };
    for (let i = 0; i < WARMUP; i++) {
      await viaApp();
      await viaSdk();
    }
    const app: number[] = [];
    const sdk: number[] = [];
    const timed = async (call: () => Promise<void>, into: number[]) => {
      const start = performance.now();
      await call();
      into.push(performance.now() - start);
    };
    for (let i = 0; i < calls; i++) {
      // Alternate who goes first, so neither always follows the other's garbage.
      if (i % 2 === 0) {
        await timed(viaApp, app);
        await timed(viaSdk, sdk);
      } else {
        await timed(viaSdk, sdk);
        await timed(viaApp, app);
      }
    }
    return [
      {
        figure: 'Tool call (echo, server-everything)',
        unit: 'ms',
        app: median(app),
        baseline: median(sdk),
        baselineName: 'bare SDK Client',
        budget: { maxRatio: 1.2 },
        note: `median of ${calls} interleaved calls each after ${WARMUP} warm-up; p95 app ${p95(app).toFixed(2)} ms, bare ${p95(sdk).toFixed(2)} ms`,
      },
    ];
  } finally {
    await registry.close();
    await bare.close();
    await server.stop();
  }
}
