// Prompt-cache figures of scripted tool threads as the app sends them (the turn runner, the SDK adapter and its
// breakpoints), measured by the contract fake's cache accounting (test/fakes/fake-anthropic-cache.ts).
import '../../setup-unit'; // IndexedDB for Node: the app's storage runs against fake-indexeddb.
import { withAppContext } from '../../../src/domain/app-context';
import type { ToolSearchSettings } from '../../../src/domain/tool-search-settings';
import type { Row } from '../report';
import { sendMessage } from '../../../src/turns/turn-runner';
import { promptBlocks } from '../../fakes/fake-anthropic-cache';
import type { RecordedRequest, ScriptedTurn } from '../../fakes/fake-anthropic';
import { startTestApp } from '../../fakes/test-app';
import { startReportServer } from '../../fixtures/report-server';

/** Input tokens of a run split as the cache accounted them, beside the ideal of the same requests. */
export interface CacheFigures {
  readonly requests: number;
  /** Requests the contract fake accepted. */
  readonly accepted: number;
  readonly total: number;
  readonly uncached: number;
  readonly read: number;
  readonly written: number;
  /** Read share of all input tokens, and the ideal's: each request reads the prefix it shares with the one before. */
  readonly share: number;
  readonly idealShare: number;
  /** Input cost against the same requests without caching (reads 0.1x, writes 1.25x), and the ideal's. */
  readonly cost: number;
  readonly idealCost: number;
}

/** The figures of the requests a fake recorded. */
export function cacheFigures(requests: readonly RecordedRequest[]): CacheFigures {
  let [uncached, read, written, ideal, accepted] = [0, 0, 0, 0, 0];
  let previous: string[] = [];
  for (const request of requests) {
    const usage = request.usage;
    if (!usage) continue;
    accepted++;
    uncached += usage.input_tokens;
    read += usage.cache_read_input_tokens;
    written += usage.cache_creation_input_tokens;
    const blocks = promptBlocks(request.body);
    let shared = 0;
    while (shared < blocks.length && blocks[shared]!.key === previous[shared]) shared++;
    ideal += blocks.slice(0, shared).reduce((sum, b) => sum + b.tokens, 0);
    previous = blocks.map((b) => b.key);
  }
  const total = uncached + read + written || 1;
  return {
    requests: requests.length,
    accepted,
    total,
    uncached,
    read,
    written,
    share: read / total,
    idealShare: ideal / total,
    cost: (uncached + 0.1 * read + 1.25 * written) / total,
    // The ideal writes what it does not read.
    idealCost: (0.1 * ideal + 1.25 * (total - ideal)) / total,
  };
}

export interface ThreadOptions {
  readonly questions: number;
  readonly resultChars: number;
  readonly mode?: ToolSearchSettings['mode'];
  /** Filler tools beside the report tool, and deferral always, so the mode's tool search is used. */
  readonly extraTools?: number;
}

/** Runs a thread of `questions` questions, each needing the report tool (found by the mode's search first). */
export async function runReportThread(options: ThreadOptions): Promise<CacheFigures> {
  const { mode, extraTools = 0 } = options;
  const reports = await startReportServer({ resultChars: options.resultChars, extraTools });
  const toolSearch = mode ? { mode, deferral: 'always' as const } : undefined;
  const app = await startTestApp({ apiKey: 'sk-ant-bench', ...(toolSearch ? { toolSearch } : {}) });
  try {
    await app.registry.register({ id: 'reports', name: 'Reports', url: reports.url }, 'user');
    const thread = await app.opened.storage.threads.create(app.deps.profileId, {
      title: 'Cache bench',
      enabledServerIds: ['reports'],
    });
    for (let q = 1; q <= options.questions; q++) {
      const read = { toolUses: [{ name: 'mcp__reports__read_report', input: { section: `Q${q}` } }] };
      const query = 'quarterly report section';
      const find: ScriptedTurn[] =
        q > 1 || !mode
          ? [read]
          : mode === 'server'
            ? [{ serverToolSearch: { query }, ...read }]
            : [{ toolUses: [{ name: 'tool_search', input: { query } }] }, read];
      app.api.script(...find, { text: `Section Q${q} shows steady revenue and lower costs than the quarter before.` });
      const outcome = await sendMessage(app.deps, thread.id, `What does section Q${q} of the report say?`, {
        askApproval: () => Promise.resolve('allow-once'),
        signal: new AbortController().signal,
      });
      if (outcome.status !== 'done') throw new Error(`question ${q}: ${JSON.stringify(outcome)}`);
    }
    return cacheFigures(app.api.requests);
  } finally {
    await app.close();
    await reports.close();
  }
}

/**
 * The rows of `npm run bench`: the five- and twenty-question threads against the same requests without caching (the
 * ratio of "not read from cache" is 1 - read share), and the requests the contract fake refused in each mode.
 */
export async function measurePromptCache(): Promise<Row[]> {
  const baselineName = 'same requests, no cache';
  const five = await runReportThread({ questions: 5, resultChars: 10_000 });
  const twenty = await runReportThread({ questions: 20, resultChars: 10_000 });
  const modes = await Promise.all(
    (['client', 'anthropic', 'server'] as const).map(async (mode) => ({
      mode,
      run: await runReportThread({ questions: 3, resultChars: 10_000, mode, extraTools: 40 }),
    })),
  );
  const missed = (f: CacheFigures) => f.uncached + f.written;
  const ideal = (f: CacheFigures) =>
    `read share ${f.share.toFixed(3)} (ideal ${f.idealShare.toFixed(3)}), input cost ${f.cost.toFixed(3)}x (ideal ${f.idealCost.toFixed(3)}x), ${f.requests} requests, ~2,500-token tool results, the contract fake's cache accounting`;
  return [
    {
      figure: 'Prompt cache, 5 questions: input cost',
      unit: 'tok',
      app: five.uncached + 0.1 * five.read + 1.25 * five.written,
      baseline: five.total,
      baselineName,
      budget: { maxRatio: 0.35 },
      note: `${ideal(five)}; reads cost 0.1x, writes 1.25x`,
    },
    {
      figure: 'Prompt cache, 5 questions: not read from cache',
      unit: 'tok',
      app: missed(five),
      baseline: five.total,
      baselineName,
      budget: { maxRatio: 0.22 },
      note: `read share >= 0.78; ${ideal(five)}`,
    },
    {
      figure: 'Prompt cache, 20 questions: not read from cache',
      unit: 'tok',
      app: missed(twenty),
      baseline: twenty.total,
      baselineName,
      budget: { maxRatio: 0.07 },
      note: `read share >= 0.93; ${ideal(twenty)}`,
    },
    {
      figure: 'Tool-search modes: requests refused',
      unit: 'req',
      app: modes.reduce((sum, { run }) => sum + run.requests - run.accepted, 0),
      baselineName: '(none)',
      budget: { max: 0 },
      note: modes
        .map(({ mode, run }) => `${mode} ${run.accepted}/${run.requests} accepted, read share ${run.share.toFixed(3)}`)
        .join('; '),
    },
  ];
}

/** One turn's first request (the one after the app's update): its read share, and the turn's cache writes. */
export interface AppContextTurn {
  readonly readShare: number;
  readonly written: number;
}

/**
 * A thread where an MCP App updates its model context (a map's viewport) before each of `turns` questions, each
 * needing the report tool: per turn, the read share of its first request and the tokens the turn wrote to the cache.
 */
export async function runAppContextThread(options: {
  readonly turns: number;
  readonly resultChars: number;
}): Promise<{ readonly turns: AppContextTurn[]; readonly figures: CacheFigures }> {
  const reports = await startReportServer({ resultChars: options.resultChars });
  const app = await startTestApp({ apiKey: 'sk-ant-bench' });
  try {
    await app.registry.register({ id: 'reports', name: 'Reports', url: reports.url }, 'user');
    const { threads } = app.opened.storage;
    const thread = await threads.create(app.deps.profileId, {
      title: 'App context bench',
      enabledServerIds: ['reports'],
    });
    const turns: AppContextTurn[] = [];
    for (let t = 1; t <= options.turns; t++) {
      // As the page stores a ui/update-model-context of the app shown by an earlier tool call (stores/mcp-apps.ts).
      const viewport = `The map shows Lyon at zoom ${11 + t}, centred on 45.76N 4.8${t}E; ${20 + t} sales regions visible, Q${t} highlighted.`;
      await threads.update(
        thread.id,
        (current) => ({ appContexts: withAppContext(current.appContexts, 'toolu_map', 'reports', viewport) }),
        { isActivity: false },
      );
      const before = app.api.requests.length;
      app.api.script(
        { toolUses: [{ name: 'mcp__reports__read_report', input: { section: `Q${t}` } }] },
        { text: `Section Q${t} shows steady revenue.` },
      );
      const outcome = await sendMessage(
        app.deps,
        thread.id,
        `What does section Q${t} say about the highlighted regions?`,
        {
          askApproval: () => Promise.resolve('allow-once'),
          signal: new AbortController().signal,
        },
      );
      if (outcome.status !== 'done') throw new Error(`turn ${t}: ${JSON.stringify(outcome)}`);
      const sent = app.api.requests.slice(before);
      const first = sent[0]?.usage;
      const all = first ? first.input_tokens + first.cache_read_input_tokens + first.cache_creation_input_tokens : 0;
      turns.push({
        readShare: first && all > 0 ? first.cache_read_input_tokens / all : 0,
        written: sent.reduce((sum, r) => sum + (r.usage?.cache_creation_input_tokens ?? 0), 0),
      });
    }
    return { turns, figures: cacheFigures(app.api.requests) };
  } finally {
    await app.close();
    await reports.close();
  }
}
