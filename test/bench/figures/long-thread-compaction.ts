// Long thread against the contract fake (issue #17): `turns` questions, each answered after one tool call whose result
// is about 2,500 tokens, in a model with a 200k window. The app compacts as it goes (cleared tool results, then the
// API's compaction or a summary by a model call). Measured: requests refused, the largest input of any request (the
// fake's count, from the last compaction block on), compactions, and that every message is still stored. Baseline
// in the same run: the input the last request would need if nothing were compacted (what the fake refuses past 200k).
import '../../setup-unit';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { SUMMARY_INSTRUCTION } from '../../../src/agent/compaction';
import { toModelMessages } from '../../../src/agent/history';
import { sendMessage } from '../../../src/turns/turn-runner';
import { promptTokens } from '../../fakes/fake-anthropic-cache';
import type { RecordedRequest, Turn } from '../../fakes/fake-anthropic';
import { startTestApp } from '../../fakes/test-app';
import { listenOnLoopback } from '../../fixtures/listen-loopback';
import type { Row } from '../report';

export const WINDOW = 200_000;

/** Which compaction the endpoint offers: a model without it, one with it, or an endpoint that refuses the beta. */
export type Variant = 'client' | 'server' | 'refused';
const MODELS: Record<Variant, string> = {
  client: 'claude-sonnet-5',
  server: 'claude-sonnet-4-6',
  refused: 'claude-sonnet-4-6',
};

export interface LongThreadFigures {
  readonly variant: Variant;
  readonly turns: number;
  readonly requests: number;
  readonly refused: number;
  readonly maxInputTokens: number;
  readonly medianInputTokens: number;
  readonly withoutCompactionTokens: number;
  readonly compactions: Record<'cleared' | 'client' | 'server', number>;
  readonly notes: number;
  readonly storedMessages: number;
  readonly expectedMessages: number;
  readonly costUsd: number;
  readonly seconds: number;
}

async function startReportServer(resultChars: number) {
  const http = createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const server = new Server({ name: 'reports', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        {
          name: 'read_report',
          description: 'Read one section of the yearly report',
          inputSchema: { type: 'object', properties: { section: { type: 'string' } }, required: ['section'] },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      const raw = request.params.arguments?.section;
      const section = typeof raw === 'string' ? raw : '';
      const line = `Section ${section}: revenue, costs, staff and notes. `;
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

const lastText = (request: RecordedRequest): string => {
  const content = request.body.messages.at(-1)?.content;
  return Array.isArray(content) ? content.map((b) => ('text' in b ? String(b.text) : b.type)).join(' ') : '';
};

/** The scripted model: a summary when asked for one, an answer after a tool result, else a tool call. */
function modelTurn(answerChars: number) {
  let question = 0;
  return (request: RecordedRequest): Turn => {
    const last = lastText(request);
    if (last.includes(SUMMARY_INSTRUCTION))
      return { text: `So far the person read ${question} sections of the yearly report; each had figures.` };
    if (last.endsWith('tool_result') || last.includes('tool_result'))
      return { text: `Section ${question} shows steady revenue. ${'Details follow. '.repeat(answerChars / 16)}` };
    question += 1;
    return { toolUses: [{ name: 'mcp__reports__read_report', input: { section: `S${question}` } }] };
  };
}

/** Runs the long thread and returns its figures. */
export async function runLongThread(
  variant: Variant,
  turns = 300,
  resultTokens = 2_500,
  answerTokens = 300,
): Promise<LongThreadFigures> {
  const started = performance.now();
  const reports = await startReportServer(resultTokens * 4);
  const app = await startTestApp({
    apiKey: 'sk-ant-bench',
    api: { contextWindowTokens: WINDOW, ...(variant === 'refused' ? { supportedBetas: [] } : {}) },
  });
  try {
    await app.registry.register({ id: 'reports', name: 'Reports', url: reports.url }, 'user');
    const thread = await app.opened.storage.threads.create(app.deps.profileId, {
      title: 'Long thread bench',
      enabledServerIds: ['reports'],
      model: MODELS[variant],
    });
    const turn = modelTurn(answerTokens * 4);
    for (let q = 1; q <= turns; q++) {
      app.api.script(turn, turn, turn, turn);
      const outcome = await sendMessage(app.deps, thread.id, `What does section S${q} say?`, {
        askApproval: () => Promise.resolve('allow-once'),
        signal: new AbortController().signal,
      });
      // Scripted turns this question did not use stay for the next one: the scripted model has no per-turn state.
      if (outcome.status !== 'done') throw new Error(`turn ${q}: ${JSON.stringify(outcome)}`);
    }
    const accepted = app.api.requests.filter((r) => r.usage !== undefined);
    const inputs = accepted.map((r) => r.inputTokens ?? 0).sort((a, b) => a - b);
    const { items } = await app.opened.storage.messages.list(thread.id);
    const records = (await app.opened.storage.compactions.list(thread.id)).items;
    const count = (method: 'cleared' | 'client' | 'server') => records.filter((r) => r.method === method).length;
    const last = accepted.at(-1);
    const costUsd = items
      .flatMap((m) => m.trace)
      .reduce((sum, e) => sum + (e.kind === 'model-call' ? (e.costUsd ?? 0) : 0), 0);
    return {
      variant,
      turns,
      requests: app.api.requests.length,
      // A refusal the app expects (the beta on an endpoint without it) is counted apart, as a note.
      refused: app.api.requests.length - accepted.length - (variant === 'refused' ? 1 : 0),
      maxInputTokens: inputs.at(-1) ?? 0,
      medianInputTokens: inputs[inputs.length >> 1] ?? 0,
      withoutCompactionTokens: last ? promptTokens({ ...last.body, messages: toModelMessages(items) }) : 0,
      compactions: { cleared: count('cleared'), client: count('client'), server: count('server') },
      notes: records.filter((r) => r.note !== undefined).length,
      storedMessages: items.length,
      expectedMessages: turns * 4,
      costUsd,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await app.close();
    await reports.close();
  }
}

/** The rows of `npm run bench`: the largest request against the input the thread would need uncompacted. */
export async function measureLongThreadCompaction(turns = 300): Promise<Row[]> {
  const f = await runLongThread('client', turns);
  const stored = `${f.storedMessages}/${f.expectedMessages} messages stored`;
  const made = `${f.compactions.cleared} clearings, ${f.compactions.client} summaries`;
  return [
    {
      figure: `Long thread (${turns} turns × 2.5k-token results): largest request`,
      unit: 'tokens',
      app: f.maxInputTokens,
      baseline: f.withoutCompactionTokens,
      baselineName: 'same thread uncompacted',
      budget: { max: WINDOW },
      note: `${f.refused} refused of ${f.requests}; ${made}; ${stored}; $${f.costUsd.toFixed(2)}`,
    },
  ];
}
