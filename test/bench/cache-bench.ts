// npm run --silent bench:cache [-- --questions 5 --result-tokens 2500]
// The prompt-cache read share of a scripted tool thread as the app sends it today, measured by the contract fake's
// cache accounting (test/fakes/fake-anthropic-cache.ts): each question needs one tool whose result is about
// `result-tokens` tokens, so a question is two requests. Printed beside the ideal: every request after the first
// reads the prefix it shares with the request before it.
import '../setup-unit';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { sendMessage } from '../../src/turns/turn-runner';
import { promptBlocks } from '../fakes/fake-anthropic-cache';
import { startTestApp } from '../fakes/test-app';
import { listenOnLoopback } from '../fixtures/listen-loopback';

const { values } = parseArgs({
  options: { questions: { type: 'string', default: '5' }, 'result-tokens': { type: 'string', default: '2500' } },
});
const questions = Number(values.questions);
const resultChars = Number(values['result-tokens']) * 4;

/** A stateless MCP server with one tool whose result is a report of about `resultChars` characters. */
async function startReportServer() {
  const http = createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const server = new Server({ name: 'reports', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        {
          name: 'read_report',
          description: 'Read one section of the quarterly report',
          inputSchema: { type: 'object', properties: { section: { type: 'string' } }, required: ['section'] },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      const raw = request.params.arguments?.section;
      const section = typeof raw === 'string' ? raw : '';
      const line = `Section ${section}: revenue, costs and notes for the quarter. `;
      return {
        content: [{ type: 'text', text: line.repeat(Math.ceil(resultChars / line.length)).slice(0, resultChars) }],
      };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close());
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => res.destroy());
  });
  const { port, close } = await listenOnLoopback(http);
  return { url: `http://127.0.0.1:${port}/mcp`, close };
}

const reports = await startReportServer();
const app = await startTestApp({ apiKey: 'sk-ant-bench' });
try {
  await app.registry.register({ id: 'reports', name: 'Reports', url: reports.url }, 'user');
  const thread = await app.opened.storage.threads.create(app.deps.profileId, {
    title: 'Cache bench',
    enabledServerIds: ['reports'],
  });
  for (let q = 1; q <= questions; q++) {
    app.api.script(
      { toolUses: [{ name: 'mcp__reports__read_report', input: { section: `Q${q}` } }] },
      { text: `Section Q${q} shows steady revenue and lower costs than the quarter before.` },
    );
    const outcome = await sendMessage(app.deps, thread.id, `What does section Q${q} of the report say?`, {
      askApproval: () => Promise.resolve('allow-once'),
      signal: new AbortController().signal,
    });
    if (outcome.status !== 'done') throw new Error(`question ${q}: ${JSON.stringify(outcome)}`);
  }
  let input = 0;
  let read = 0;
  let written = 0;
  let ideal = 0;
  let previous: string[] = [];
  for (const request of app.api.requests) {
    const usage = request.usage;
    if (!usage) throw new Error(`request ${request.index} was refused`);
    input += usage.input_tokens;
    read += usage.cache_read_input_tokens;
    written += usage.cache_creation_input_tokens;
    // Ideal: the blocks this request shares, from the start, with the one before it are read from the cache.
    const blocks = promptBlocks(request.body);
    let shared = 0;
    while (shared < blocks.length && blocks[shared]!.key === previous[shared]) shared++;
    ideal += blocks.slice(0, shared).reduce((sum, b) => sum + b.tokens, 0);
    previous = blocks.map((b) => b.key);
  }
  const total = input + read + written;
  const cost = (input + 0.1 * read + 1.25 * written) / total;
  const share = (n: number) => (n / total).toFixed(3);
  console.log(`requests                ${app.api.requests.length}`);
  console.log(`input tokens (all)      ${total}`);
  console.log(`  uncached / read / written  ${input} / ${read} / ${written}`);
  console.log(`cache read share        ${share(read)}   (ideal ${share(ideal)})`);
  // The ideal writes what it does not read (reads 0.1x, writes 1.25x of the base input price).
  const idealCost = (0.1 * ideal + 1.25 * (total - ideal)) / total;
  console.log(`input cost vs no cache  ${cost.toFixed(3)}x   (ideal ${idealCost.toFixed(3)}x)`);
} finally {
  await app.close();
  await reports.close();
}
