// A live tools/list of 10,000 tools taken in (issue #23, bad input: "a catalog of 50,000 tools ... the page responsive
// throughout"): how long the app's intake (check each tool, apply the size caps, hash, store) holds the thread at
// once, against the SDK's own parse of the same answer, which every tools/list costs the page first (no budget: the
// issue sets none). It stops at the store: the argument checks the registry compiles after it are not in it. In
// Node, with zod's interpreter as in the page (its CSP forbids the `new Function` zod compiles with), fake-indexeddb.
import { performance } from 'node:perf_hooks';
import { ListToolsResultSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { catalogFromTools } from '../../../src/mcp/catalog';
import { sha256Hex } from '../../fakes/memory-stores';
import { openTestStorage } from '../../fakes/test-storage';
import { readLiveMcpBenchTools } from '../dataset';
import { median, type Row } from '../report';

const RUNS = 5;

/** A tools/list answer of `count` LiveMCPBench tools (names made unique). */
function answerOf(count: number): { tools: Tool[] } {
  const raw = readLiveMcpBenchTools();
  const tools = Array.from({ length: count }, (_, i) => {
    const tool = raw[i % raw.length]!;
    return { name: `${tool.name}_${i}`, description: tool.description ?? '', inputSchema: { ...tool.inputSchema } };
  });
  return { tools: tools as Tool[] };
}

/** The longest stretch the event loop was held while `work` ran, and the whole time it took. */
async function holdOf(work: () => Promise<unknown>): Promise<{ longest: number; total: number }> {
  let longest = 0;
  let last = performance.now();
  let isRunning = true;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (isRunning) setImmediate(tick);
  };
  setImmediate(tick);
  const start = performance.now();
  await work();
  const total = performance.now() - start;
  isRunning = false;
  longest = Math.max(longest, performance.now() - last);
  return { longest, total };
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The registry's intake of one answer, as `onTools` runs it: the catalog built a step at a time, then stored. */
async function intake(answer: { tools: Tool[] }): Promise<void> {
  const test = await openTestStorage();
  try {
    const catalog = await catalogFromTools('p', 's', answer.tools, 1, sha256Hex, undefined, yieldToLoop);
    await test.storage.catalog.set(catalog);
  } finally {
    test.close();
  }
}

export async function measureToolIntake(): Promise<Row[]> {
  z.config({ jitless: true });
  try {
    const rows: Row[] = [];
    for (const count of [10_000, 50_000]) {
      const answer = answerOf(count);
      const sdk: number[] = [];
      const ours: { longest: number; total: number }[] = [];
      for (let run = 0; run < RUNS; run++) {
        sdk.push((await holdOf(async () => ListToolsResultSchema.parse(answer))).longest);
        ours.push(await holdOf(() => intake(answer)));
      }
      rows.push({
        figure: `Taking in a tools/list of ${count.toLocaleString('en-US')} tools, longest hold`,
        unit: 'ms',
        app: median(ours.map((o) => o.longest)),
        baseline: median(sdk),
        baselineName: "the SDK's own parse of the answer",
        note: `median of ${RUNS}; the intake takes ${median(ours.map((o) => o.total)).toFixed(0)} ms in all, in steps of 64 tools with the event loop let in between (zod's interpreter, as under the page's CSP)`,
      });
    }
    return rows;
  } finally {
    z.config({ jitless: false });
  }
}
