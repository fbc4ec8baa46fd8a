import type { ContextCompaction, NewContextCompaction } from '../domain/compaction';
import type { Message } from '../domain/message';
import { ModelError } from '../domain/model-errors';
import type { CompactionTrace, ModelCallTrace, TraceEntry, Usage } from '../domain/trace';
import { contextOf, estimateTokens, latestSummary, requestTokens, type ModelContext } from './compaction-context';
import type { ModelPort, ModelRequest, ModelResult } from './model-port';
import type { ModelTool } from '../domain/tool';

// Long threads never hit the context window. When a request would pass a share of the window, the context is made
// smaller in one step (so the prompt cache keeps its new prefix until the next time), never a little every turn:
// 1. old tool results are cleared (context editing, done by the app) when that alone leaves ample room;
// 2. else the API compacts server-side where the endpoint and model support it
//    (https://platform.claude.com/docs/en/build-with-claude/compaction);
// 3. else, or when the endpoint refuses the beta, the app asks the model for a summary.
// Every message stays stored and shown; a ContextCompaction record says where the model's context starts.

/** Where a thread's compactions are kept. */
export interface CompactionStore {
  list(): Promise<ContextCompaction[]>;
  add(record: NewContextCompaction): Promise<ContextCompaction>;
}

export interface CompactionSettings {
  /** The model's context window in tokens (looked up once per model). */
  readonly contextWindow: () => Promise<number>;
  /** Compact when a request would pass this share of the window (0.75 by default). */
  readonly compactAtShare: number;
  /** The endpoint and model offer the API's compaction (the app falls back when the endpoint refuses it). */
  readonly isServerCompactionSupported: boolean;
}

/**
 * Models the compaction page lists under "Supported models" (claude-mythos-preview, claude-opus-4-7, claude-opus-4-6,
 * claude-sonnet-4-6); others get client-side summaries. An endpoint that still refuses is handled by streamCompacting.
 */
export const SERVER_COMPACTION_MODELS = [
  'claude-mythos-preview',
  'claude-opus-4-7',
  'claude-opus-4-6',
  'claude-sonnet-4-6',
];

/** Whether the API's compaction is offered for this model (a dated id counts as its family). */
export const isServerCompactionModel = (model: string): boolean =>
  SERVER_COMPACTION_MODELS.some((id) => model === id || model.startsWith(`${id}-`));
/** Clearing tool results is enough when it leaves the request under this share of the threshold. */
const CLEARING_ENOUGH_SHARE = 0.5;
/** The API's smallest compaction trigger (compaction docs: trigger value at least 50,000 tokens). */
export const MIN_SERVER_TRIGGER = 50_000;
const SUMMARY_MAX_TOKENS = 4096;

export const SUMMARY_INSTRUCTION =
  'Summarize the conversation above so that it can continue from your summary alone: the person’s goals and requests, decisions made, facts and figures found (with the tools that gave them), open questions and what was about to happen next. Answer with the summary only; do not call tools.';

/** The context of one model call, and what was done to it before the call. */
export interface PreparedContext {
  readonly context: ModelContext;
  /** Estimated input tokens of the request as it will be sent. */
  readonly tokens: number;
  /** Ask the API to compact in this call (the request is over the threshold and the endpoint may support it). */
  readonly serverCompaction?: { readonly triggerTokens: number };
  /** Compactions and summary calls made for this call, for its trace. */
  readonly trace: TraceEntry[];
}

export interface PrepareInput {
  readonly history: readonly Message[];
  readonly store: CompactionStore;
  readonly settings: CompactionSettings;
  readonly request: Pick<ModelRequest, 'model' | 'system' | 'trailingContext' | 'thinkingBudget'> & {
    readonly tools: readonly ModelTool[];
  };
  readonly model: ModelPort;
  /** The trace entry of a summary call (usage and cost, like the turn's own calls). */
  readonly callTrace: (extra: { usage?: Usage; stopReason?: string; error?: string }) => ModelCallTrace;
}

const isPersonMessage = (m: Message) => m.role === 'user' && m.blocks.some((b) => b.type === 'text');
const thresholdOf = (settings: CompactionSettings, window: number) => Math.floor(window * settings.compactAtShare);
/** The note of a compaction made after the endpoint refused the API's compaction: the thread says so once. */
const hasRefusal = (records: readonly ContextCompaction[]) => records.some((r) => r.note !== undefined);

/** The context for the next model call, compacted first when the request would pass the threshold. */
export async function prepareContext(input: PrepareInput, signal: AbortSignal): Promise<PreparedContext> {
  const { history, store, settings, request } = input;
  const records = await store.list();
  const tokensOf = (context: ModelContext) => requestTokens({ ...request, context });
  const context = contextOf(history, records);
  const tokens = tokensOf(context);
  const threshold = thresholdOf(settings, await settings.contextWindow());
  if (tokens <= threshold) return { context, tokens, trace: [] };

  // 1. Clear the tool results before this turn, once, if that leaves ample room.
  const turnStart = history.findLast(isPersonMessage);
  const lastClear = records.findLast((r) => r.method === 'cleared');
  const clearedFrom = Math.max(lastClear?.firstKeptSeq ?? -1, latestSummary(records)?.firstKeptSeq ?? -1);
  if (turnStart && turnStart.seq > clearedFrom) {
    const cleared: NewContextCompaction = {
      method: 'cleared',
      firstKeptMessageId: turnStart.id,
      firstKeptSeq: turnStart.seq,
      summary: '',
      tokensBefore: tokens,
      tokensAfter: 0,
    };
    const next = contextOf(history, [...records, { ...cleared, id: '', threadId: '', createdAt: 0 }]);
    const after = tokensOf(next);
    if (after < tokens && after <= threshold * CLEARING_ENOUGH_SHARE) {
      await store.add({ ...cleared, tokensAfter: after });
      return { context: next, tokens: after, trace: [compactionTrace('cleared', tokens, after)] };
    }
  }

  // 2. The API compacts in this call, where it can.
  if (settings.isServerCompactionSupported && !hasRefusal(records) && tokens >= MIN_SERVER_TRIGGER)
    return {
      context,
      tokens,
      serverCompaction: { triggerTokens: Math.max(MIN_SERVER_TRIGGER, Math.floor(threshold * 0.8)) },
      trace: [],
    };

  // 3. A summary made by a model call.
  return summarize(input, records, tokens, threshold, undefined, signal);
}

/**
 * Streams the call; when the endpoint refuses the API's compaction (any 400 to a request that asked for it), the app
 * summarizes itself, notes why once in the thread, and sends the call again without the beta: one retry, never a loop.
 */
export async function streamCompacting(
  input: PrepareInput,
  prepared: PreparedContext,
  build: (context: ModelContext, serverCompaction?: PreparedContext['serverCompaction']) => ModelRequest,
  onSnapshot: Parameters<ModelPort['stream']>[1],
  signal: AbortSignal,
): Promise<{ result: ModelResult; prepared: PreparedContext }> {
  try {
    const result = await input.model.stream(build(prepared.context, prepared.serverCompaction), onSnapshot, signal);
    return { result, prepared };
  } catch (error) {
    if (!prepared.serverCompaction || !(error instanceof ModelError) || error.status !== 400) throw error;
    const note = `The model endpoint refused the API’s server-side compaction (${error.detail ?? error.message}); this thread’s context is summarized by the app instead.`;
    const records = await input.store.list();
    const threshold = thresholdOf(input.settings, await input.settings.contextWindow());
    const fallback = await summarize(input, records, prepared.tokens, threshold, note, signal);
    const merged: PreparedContext = { ...fallback, trace: [...prepared.trace, ...fallback.trace] };
    const result = await input.model.stream(build(merged.context), onSnapshot, signal);
    return { result, prepared: merged };
  }
}

/** Keeps the API's compaction of this call: the model's context now starts at the answer that carries it. */
export async function recordServerCompaction(
  input: Pick<PrepareInput, 'store' | 'history' | 'request'>,
  answer: Message,
  result: ModelResult,
  tokensBefore: number,
): Promise<CompactionTrace | undefined> {
  const block = result.compaction;
  if (!block) return undefined;
  const record: NewContextCompaction = {
    method: 'server',
    firstKeptMessageId: answer.id,
    firstKeptSeq: answer.seq,
    summary: block.content ?? '',
    block,
    tokensBefore,
    tokensAfter: 0,
  };
  const history = [...input.history.filter((m) => m.id !== answer.id), { ...answer, blocks: result.blocks }];
  const records = [...(await input.store.list()), { ...record, id: '', threadId: '', createdAt: 0 }];
  const after = requestTokens({ ...input.request, context: contextOf(history, records) });
  await input.store.add({ ...record, tokensAfter: after });
  return compactionTrace('server', tokensBefore, after);
}

function compactionTrace(
  method: CompactionTrace['method'],
  tokensBefore: number,
  tokensAfter: number,
  note?: string,
): CompactionTrace {
  return { kind: 'compaction', method, tokensBefore, tokensAfter, ...(note ? { note } : {}) };
}

/** Where the kept messages start: the current turn's message, or its last model answer when the turn alone is large. */
function keptStart(input: PrepareInput, records: readonly ContextCompaction[], threshold: number): Message | undefined {
  const from = latestSummary(records)?.firstKeptSeq ?? -1;
  const turnStart = input.history.findLast(isPersonMessage);
  // A retried attempt is never sent (history.ts): it neither counts nor starts what is kept.
  const tail = input.history.filter((m) => turnStart && m.seq >= turnStart.seq && !m.retried);
  const isTurnLarge = estimateTokens(tail.map((m) => m.blocks)) > threshold / 2;
  const start = isTurnLarge ? input.history.findLast((m) => m.role === 'assistant' && !m.retried) : turnStart;
  return start && start.seq > from ? start : undefined;
}

async function summarize(
  input: PrepareInput,
  records: readonly ContextCompaction[],
  tokensBefore: number,
  threshold: number,
  note: string | undefined,
  signal: AbortSignal,
): Promise<PreparedContext> {
  const { history, request } = input;
  const start = keptStart(input, records, threshold);
  if (!start) {
    // Nothing older than the current turn is left to summarize: send as it is (the API says if it is too long).
    const context = contextOf(history, records);
    return { context, tokens: tokensBefore, trace: [] };
  }
  const older = contextOf(
    history.filter((m) => m.seq < start.seq),
    records,
  );
  const last = older.messages.at(-1);
  const ask = { type: 'text' as const, text: SUMMARY_INSTRUCTION };
  const messages =
    last?.role === 'user'
      ? [...older.messages.slice(0, -1), { ...last, content: [...last.content, ask] }]
      : [...older.messages, { role: 'user' as const, content: [ask] }];
  const result = await input.model.stream(
    {
      model: request.model,
      maxTokens: SUMMARY_MAX_TOKENS,
      messages,
      // The same tools and system prompt: the thread's tool_use blocks need their tools, and the prefix stays cached.
      tools: request.tools,
      ...(request.system ? { system: request.system } : {}),
      ...(older.compactionBlock ? { compactionBlock: older.compactionBlock } : {}),
    },
    () => undefined,
    signal,
  );
  const summary = result.blocks
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('\n')
    .trim();
  const callEntry = {
    ...input.callTrace({ usage: result.usage, stopReason: result.stopReason ?? undefined }),
    purpose: 'summary' as const,
  };
  if (summary === '') return { context: contextOf(history, records), tokens: tokensBefore, trace: [callEntry] };
  const record: NewContextCompaction = {
    method: 'client',
    firstKeptMessageId: start.id,
    firstKeptSeq: start.seq,
    summary,
    tokensBefore,
    tokensAfter: 0,
    ...(note ? { note } : {}),
  };
  const context = contextOf(history, [...records, { ...record, id: '', threadId: '', createdAt: 0 }]);
  const tokens = requestTokens({ ...request, context });
  await input.store.add({ ...record, tokensAfter: tokens });
  return { context, tokens, trace: [callEntry, compactionTrace('client', tokensBefore, tokens, note)] };
}
