import type { AttachmentRef } from '../domain/attachment';
import type { ContentBlock, Message, NewMessage } from '../domain/message';
import { AppError } from '../domain/errors';
import { ModelError } from '../domain/model-errors';
import { isRefusedBeforeSending } from '../domain/refused-before-sending';
import { logFailure, silentLogger, type Logger } from '../domain/logger';
import { EXECUTE_CODE_NAME, type CodeLimits } from '../domain/code-execution';
import type { ThreadTools } from '../domain/thread-tools';
import { executeCodeDefinition } from './code/execute-code';
import type { OpenSandbox } from './code/sandbox-port';
import {
  anthropicCodeTraces,
  isProgrammaticUse,
  pendingContainer,
  withProgrammaticCalling,
} from './code/anthropic-code';
import { runCodeUse, runToolOrProgrammaticUse } from './tool-uses';
export { runToolUse, type UseResult } from './tool-uses';
import type { ModelTool } from '../domain/tool';
import type { ModelCallTrace, TraceEntry } from '../domain/trace';
import { costOf, traceCost, type PriceTable } from '../domain/pricing';
import { streamWithContext, type CompactionDeps } from './model-call-context';
import { offendingPart } from './request-part';
import type { ModelPort } from './model-port';
import { serverSearchTraces } from './server-search-trace';
import type { ToolProgress } from '../domain/tool-result';

type MessageChange = Partial<Pick<Message, 'blocks' | 'status' | 'error' | 'trace'>>;

/** Where a turn keeps what it produces; every finished message is written as it completes. */
export interface TurnPersistence {
  history(): Promise<Message[]>;
  append(message: NewMessage): Promise<Message>;
  update(id: string, change: MessageChange): Promise<Message>;
}

export interface TurnSettings {
  readonly model: string;
  readonly maxTokens: number;
  readonly system?: string;
  readonly thinkingBudget?: number;
  readonly maxModelCalls: number;
  readonly resultCapChars?: number;
  /** How often a streaming answer is written to storage at most. */
  readonly persistEveryMs?: number;
  /** Dollars per million tokens by model: each model call's trace shows its cost (tokens only for unknown models). */
  readonly prices?: PriceTable;
}

export interface TurnDeps {
  readonly model: ModelPort;
  /** The thread's tools for this turn: the only way the turn reaches a tool (permission, approval, trace). */
  readonly tools: ThreadTools;
  readonly persistence: TurnPersistence;
  readonly now: () => number;
  readonly settings: TurnSettings;
  /** Keeps the thread's model context within its window (compaction); without it the whole history is sent. */
  readonly compaction?: CompactionDeps;
  /** execute_code: offered, and run in a fresh sandbox per call, when set (the thread's "code" setting is on). */
  readonly code?: CodeSetup;
  /** Programmatic tool calling: the API's code execution runs the model's code and calls the thread's tools. */
  readonly isAnthropicCode?: boolean;
  /** Called with each change of a message (streamed text, tool results) for the UI. */
  readonly onMessage?: (message: Message) => void;
  /** Where failures the turn goes on past are reported (silent when omitted). */
  readonly logger?: Logger;
  /** Called with each progress notification of a tool call in flight, by its tool_use id. */
  readonly onToolProgress?: (toolUseId: string, progress: ToolProgress) => void;
  /** Takes the trace of model calls servers made during the tool calls (sampling), stored with the calls' trace. */
  readonly takeSideTrace?: () => TraceEntry[];
}

/** How a turn runs the model's code: the sandbox to open and its limits. */
export interface CodeSetup {
  readonly open: OpenSandbox;
  readonly limits: CodeLimits;
}

export type TurnOutcome =
  { readonly status: 'done' | 'stopped' | 'limit' } | { readonly status: 'error'; readonly error: string };

/** The note on an answer the person stopped. */
export const STOPPED_NOTE = 'Stopped; the answer above is partial.';
/** The note on an answer left streaming in storage: its tab was closed (or crashed) while it streamed, or storage refused its end. */
export const TAB_CLOSED_NOTE =
  'Interrupted: this answer stopped before it was fully saved (the page was closed, or storage was full); the part above is what was saved.';

/** Tells the UI about a stored message. (Not `onMessage?.(await …)`: that would skip the write when nobody listens.) */
function notify(deps: TurnDeps, message: Message): void {
  deps.onMessage?.(message);
}

/** Runs one agent turn for the person's message (with its attachments): model calls and tool calls until the model is done. */
export async function runTurn(
  userText: string,
  deps: TurnDeps,
  signal: AbortSignal,
  attachments: readonly AttachmentRef[] = [],
): Promise<TurnOutcome> {
  notify(
    deps,
    await deps.persistence.append({
      role: 'user',
      blocks: [{ type: 'text', text: userText }],
      status: 'complete',
      ...(attachments.length > 0 ? { attachments: [...attachments] } : {}),
    }),
  );
  return continueTurn(userText, deps, signal);
}

/** Runs a turn that starts with several messages (a server's prompt), each stored with its own role and content. */
export async function runTurnWithMessages(
  messages: readonly { readonly role: 'user' | 'assistant'; readonly blocks: ContentBlock[] }[],
  deps: TurnDeps,
  signal: AbortSignal,
): Promise<TurnOutcome> {
  for (const message of messages)
    notify(deps, await deps.persistence.append({ role: message.role, blocks: message.blocks, status: 'complete' }));
  const texts = messages
    .flatMap((m) => (m.role === 'user' ? m.blocks : []))
    .flatMap((b) => (b.type === 'text' ? [b.text] : []));
  return continueTurn(texts.join('\n'), deps, signal);
}

/** Runs a turn whose messages so far are stored already (Retry after a failed model call): model calls from the history's end. */
export async function continueTurn(userText: string, deps: TurnDeps, signal: AbortSignal): Promise<TurnOutcome> {
  const { persistence, settings } = deps;
  // Programmatic tool calling: the container of the turn's code, carried to every later call of the turn.
  let container = deps.isAnthropicCode ? pendingContainer(await persistence.history()) : undefined;
  const codeStarted = new Map<string, number>();
  for (let call = 0; call < settings.maxModelCalls; call++) {
    if (signal.aborted) return { status: 'stopped' };
    const callTools = await deps.tools.forCall({ userText });
    const definitions = deps.isAnthropicCode
      ? withProgrammaticCalling(callTools.definitions, (name) => deps.tools.resolve(name))
      : [...callTools.definitions, ...(deps.code ? [executeCodeDefinition(deps.code.limits)] : [])];
    const answer = await modelCall(deps, definitions, signal, container);
    if (answer.outcome) return answer.outcome;
    container = answer.container ?? container;
    if (deps.isAnthropicCode) await traceAnthropicCode(deps, answer.message, codeStarted);
    // The API paused its own (server-side) tool loop: sending the thread again lets it go on.
    if (answer.stopReason === 'pause_turn') continue;
    const toolUses = answer.message.blocks.filter(
      (b): b is Extract<ContentBlock, { type: 'tool_use' }> => b.type === 'tool_use',
    );
    if (toolUses.length === 0 || answer.stopReason !== 'tool_use') return { status: 'done' };
    // Inner calls of execute_code show on the answer while its code still runs (stored with the results below).
    const live = new Map<string, readonly TraceEntry[]>();
    const progress = (id: string, entries: readonly TraceEntry[]) => {
      live.set(id, entries);
      deps.onMessage?.({ ...answer.message, trace: [...answer.message.trace, ...[...live.values()].flat()] });
    };
    const results = await Promise.all(
      toolUses.map((use) =>
        use.name === EXECUTE_CODE_NAME && deps.code && !isProgrammaticUse(use)
          ? runCodeUse(use, deps, signal, deps.code, (entries) => progress(use.id, entries))
          : runToolOrProgrammaticUse(use, deps, signal),
      ),
    );
    const trace = [...answer.message.trace, ...results.flatMap((r) => r.trace), ...(deps.takeSideTrace?.() ?? [])];
    notify(deps, await persistence.update(answer.message.id, { trace }));
    notify(deps, await persistence.append({ role: 'user', blocks: results.map((r) => r.block), status: 'complete' }));
    if (signal.aborted) return { status: 'stopped' };
  }
  const note = `Stopped after ${settings.maxModelCalls} model calls (the limit for one turn). Send a message to continue.`;
  notify(deps, await persistence.append({ role: 'assistant', blocks: [], status: 'error', error: note }));
  return { status: 'limit' };
}

/** What to do when an endpoint refuses Anthropic's code execution tool (one without programmatic tool calling). */
export const NO_CODE_EXECUTION =
  'This endpoint may not offer Anthropic\'s code execution: set Code to "On" (in this page) or "Off" in Settings or in the thread\'s settings, then Retry.';

const codeExecutionRefused = (error: unknown, tools: readonly ModelTool[]): boolean =>
  error instanceof ModelError &&
  error.reason === 'bad-request' &&
  tools.some((t) => 'type' in t && t.type.startsWith('code_execution_')) &&
  /code_execution/.test(error.detail ?? '');

type Answer = {
  readonly outcome?: TurnOutcome;
  readonly message: Message;
  readonly stopReason: string | null;
  readonly container?: string;
};

/** Adds a code-execution trace to an answer in which the API's code execution ended (shown on the code's card). */
async function traceAnthropicCode(deps: TurnDeps, message: Message, started: Map<string, number>): Promise<void> {
  for (const block of message.blocks)
    if (block.type === 'server_tool_use' && !started.has(block.id)) started.set(block.id, deps.now());
  if (!message.blocks.some((b) => b.type === 'code_execution_tool_result')) return;
  const earlier = (await deps.persistence.history()).flatMap((m) => m.trace);
  const since = (id: string) => deps.now() - (started.get(id) ?? deps.now());
  const traces = anthropicCodeTraces(message.blocks, earlier, since);
  notify(deps, await deps.persistence.update(message.id, { trace: [...message.trace, ...traces] }));
}

async function modelCall(
  deps: TurnDeps,
  definitions: readonly ModelTool[],
  signal: AbortSignal,
  container?: string,
): Promise<Answer> {
  const { persistence, settings } = deps;
  const tools = definitions;
  const stored = await persistence.history();
  let message = await persistence.append({ role: 'assistant', blocks: [], status: 'streaming' });
  const started = deps.now();
  let lastWrite = -Infinity;
  let pendingWrite: Promise<unknown> = Promise.resolve();
  const trace = (extra: Partial<ModelCallTrace>): ModelCallTrace => ({
    kind: 'model-call',
    model: settings.model,
    toolNames: tools.map((t) => t.name),
    toolTokens: Math.ceil(JSON.stringify(tools).length / 4),
    durationMs: deps.now() - started,
    ...extra,
    ...(extra.usage && settings.prices ? traceCost(costOf(settings.model, extra.usage, settings.prices)) : {}),
  });
  const request = {
    model: settings.model,
    maxTokens: settings.maxTokens,
    tools,
    ...(settings.system ? { system: settings.system } : {}),
    ...(settings.thinkingBudget ? { thinkingBudget: settings.thinkingBudget } : {}),
    ...(container ? { container } : {}),
  };
  let latest: ContentBlock[] = [];
  let usageSoFar: ModelCallTrace['usage'];
  try {
    const { result, trace: before } = await streamWithContext(
      deps,
      stored,
      message,
      request,
      trace,
      (blocks, usage) => {
        latest = blocks;
        usageSoFar = usage ?? usageSoFar;
        deps.onMessage?.({ ...message, blocks });
        // The first words are written at once (a tab closed right away still keeps them), then at most every persistEveryMs.
        const hasContent = blocks.some((b) => b.type !== 'text' || b.text.length > 0);
        if (hasContent && deps.now() - lastWrite >= (settings.persistEveryMs ?? 1000)) {
          lastWrite = deps.now();
          pendingWrite = pendingWrite
            .then(() => persistence.update(message.id, { blocks }))
            .catch(
              logFailure(deps.logger ?? silentLogger, 'Saving a streaming answer failed', { messageId: message.id }),
            );
        }
      },
      signal,
    );
    latest = result.blocks;
    await pendingWrite;
    message = await persistence.update(message.id, {
      blocks: result.blocks,
      status: 'complete',
      trace: [
        ...before,
        trace({
          usage: result.usage,
          stopReason: result.stopReason ?? undefined,
          ...(result.container ? { container: result.container.id } : {}),
          ...(result.limits ? { limits: result.limits } : {}),
        }),
        ...serverSearchTraces(result.blocks),
      ],
    });
    deps.onMessage?.(message);
    return { message, stopReason: result.stopReason, ...(result.container ? { container: result.container.id } : {}) };
  } catch (error) {
    await pendingWrite;
    const stopped = signal.aborted;
    // A model error, or storage refusing the finished answer (a full disk), says itself what went wrong.
    const said = stopped
      ? STOPPED_NOTE
      : error instanceof AppError
        ? error.message
        : `The model call failed: ${error instanceof Error ? error.message : String(error)}`;
    const text =
      !stopped && container === undefined && codeExecutionRefused(error, tools) ? `${said} ${NO_CODE_EXECUTION}` : said;
    const ended: MessageChange = {
      blocks: latest,
      status: stopped ? 'interrupted' : 'error',
      error: text,
      // What a stopped or failed answer used so far still counts; a call refused before sending was never made.
      trace: isRefusedBeforeSending(error)
        ? []
        : [trace({ error: text, ...offendingPart(error, request), ...(usageSoFar ? { usage: usageSoFar } : {}) })],
    };
    try {
      message = await persistence.update(message.id, ended);
    } catch (saveError) {
      // Storage refuses this as well: the person still sees the answer as it stands, marked with why it was not kept
      // (and offered Retry), instead of an answer "in progress" forever.
      const why = saveError instanceof AppError ? saveError.message : 'This answer could not be saved.';
      deps.onMessage?.({ ...message, ...ended, status: 'error', error: text === why ? why : `${text} ${why}` });
      throw saveError;
    }
    deps.onMessage?.(message);
    return { message, stopReason: null, outcome: stopped ? { status: 'stopped' } : { status: 'error', error: text } };
  }
}
