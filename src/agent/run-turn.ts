import type { ContentBlock, Message, NewMessage } from '../domain/message';
import { AppError } from '../domain/errors';
import type { ModelCallTrace, ToolCallTrace, TraceEntry } from '../domain/trace';
import { failedResult, type ToolCallResult } from '../domain/tool-result';
import type { StoredApproval } from '../domain/server-trust';
import { approvalFor, decideApproval, definitionText, toolKey, type StoredApprovals } from './approval-policy';
import { EXECUTE_CODE_NAME, type CodeCaller, type CodeLimits } from '../domain/code-execution';
import { executeCodeDefinition, runExecuteCode } from './code/execute-code';
import type { OpenSandbox } from './code/sandbox-port';
import { DEFAULT_RESULT_CAP, summarize, toModelMessages, toToolResultBlock } from './history';
import type { ModelPort } from './model-port';
import type { AgentTool, AskApproval, CallTools, ModelToolDefinition, ToolChooser, ToolRunner } from './ports';

type MessageChange = Partial<Pick<Message, 'blocks' | 'status' | 'error' | 'trace'>>;

/** Where a turn keeps what it produces; every finished message is written as it completes. */
export interface TurnPersistence {
  history(): Promise<Message[]>;
  append(message: NewMessage): Promise<Message>;
  update(id: string, change: MessageChange): Promise<Message>;
  allowForThread(key: string, approval: StoredApproval): Promise<void>;
  allowAlways(key: string, approval: StoredApproval): Promise<void>;
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
}

export interface TurnDeps {
  readonly model: ModelPort;
  readonly tools: ToolChooser;
  readonly runTool: ToolRunner;
  readonly askApproval: AskApproval;
  readonly persistence: TurnPersistence;
  readonly approvals: StoredApprovals;
  readonly hash: (text: string) => Promise<string>;
  readonly now: () => number;
  readonly settings: TurnSettings;
  /** execute_code: offered, and run in a fresh sandbox per call, when set (the thread's "code" setting is on). */
  readonly code?: CodeSetup;
  /** Called with each change of a message (streamed text, tool results) for the UI. */
  readonly onMessage?: (message: Message) => void;
}

/** How a turn runs the model's code: the sandbox to open and its limits. */
export interface CodeSetup {
  readonly open: OpenSandbox;
  readonly limits: CodeLimits;
}

export type TurnOutcome =
  { readonly status: 'done' | 'stopped' | 'limit' } | { readonly status: 'error'; readonly error: string };

export const TOOL_SEARCH_NAME = 'tool_search';

/** The note on an answer the person stopped. */
export const STOPPED_NOTE = 'Stopped; the answer above is partial.';
/** The note on an answer left streaming in storage: its tab was closed (or crashed) while it streamed, or storage refused its end. */
export const TAB_CLOSED_NOTE =
  'Interrupted: this answer stopped before it was fully saved (the page was closed, or storage was full); the part above is what was saved.';

/** Tells the UI about a stored message. (Not `onMessage?.(await …)`: that would skip the write when nobody listens.) */
function notify(deps: TurnDeps, message: Message): void {
  deps.onMessage?.(message);
}

/** Runs one agent turn for the person's message: model calls and tool calls until the model is done. */
export async function runTurn(userText: string, deps: TurnDeps, signal: AbortSignal): Promise<TurnOutcome> {
  notify(
    deps,
    await deps.persistence.append({ role: 'user', blocks: [{ type: 'text', text: userText }], status: 'complete' }),
  );
  return continueTurn(userText, deps, signal);
}

/** Runs a turn whose messages so far are stored already (Retry after a failed model call): model calls from the history's end. */
export async function continueTurn(userText: string, deps: TurnDeps, signal: AbortSignal): Promise<TurnOutcome> {
  const { persistence, settings } = deps;
  const requested: AgentTool[] = [];
  // Approvals given during this turn apply to its later calls too.
  const approvals = { always: { ...deps.approvals.always }, thread: { ...deps.approvals.thread } };
  const turnDeps: TurnDeps = { ...deps, approvals };
  for (let call = 0; call < settings.maxModelCalls; call++) {
    if (signal.aborted) return { status: 'stopped' };
    const callTools = await deps.tools.forCall({ userText, requested });
    const answer = await modelCall(deps, callTools, signal);
    if (answer.outcome) return answer.outcome;
    const toolUses = answer.message.blocks.filter(
      (b): b is Extract<ContentBlock, { type: 'tool_use' }> => b.type === 'tool_use',
    );
    if (toolUses.length === 0 || answer.stopReason !== 'tool_use') return { status: 'done' };
    const offered = new Set([...callTools.tools, ...requested].map((t) => t.modelName));
    // Inner calls of execute_code show on the answer while its code still runs (stored with the results below).
    const live = new Map<string, readonly TraceEntry[]>();
    const progress = (id: string, entries: readonly TraceEntry[]) => {
      live.set(id, entries);
      deps.onMessage?.({ ...answer.message, trace: [...answer.message.trace, ...[...live.values()].flat()] });
    };
    const results = await Promise.all(
      toolUses.map((use) => runToolUse(use, offered, requested, turnDeps, signal, progress)),
    );
    const trace = [...answer.message.trace, ...results.flatMap((r) => r.trace)];
    notify(deps, await persistence.update(answer.message.id, { trace }));
    notify(deps, await persistence.append({ role: 'user', blocks: results.map((r) => r.block), status: 'complete' }));
    if (signal.aborted) return { status: 'stopped' };
  }
  const note = `Stopped after ${settings.maxModelCalls} model calls (the limit for one turn). Send a message to continue.`;
  notify(deps, await persistence.append({ role: 'assistant', blocks: [], status: 'error', error: note }));
  return { status: 'limit' };
}

type Answer = { readonly outcome?: TurnOutcome; readonly message: Message; readonly stopReason: string | null };

async function modelCall(deps: TurnDeps, callTools: CallTools, signal: AbortSignal): Promise<Answer> {
  const { persistence, settings } = deps;
  const definitions = [
    ...(callTools.definitions ?? [
      ...callTools.tools.map(definitionOf),
      ...(callTools.searchTool ? [callTools.searchTool] : []),
    ]),
    ...(deps.code ? [executeCodeDefinition(deps.code.limits)] : []),
  ];
  const tools = withCacheControl(definitions);
  const history = toModelMessages(await persistence.history());
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
  });
  let latest: ContentBlock[] = [];
  try {
    const result = await deps.model.stream(
      {
        model: settings.model,
        maxTokens: settings.maxTokens,
        messages: history,
        tools,
        ...(settings.system ? { system: settings.system } : {}),
        ...(settings.thinkingBudget ? { thinkingBudget: settings.thinkingBudget } : {}),
      },
      (blocks) => {
        latest = blocks;
        deps.onMessage?.({ ...message, blocks });
        // The first words are written at once (a tab closed right away still keeps them), then at most every persistEveryMs.
        const hasContent = blocks.some((b) => b.type !== 'text' || b.text.length > 0);
        if (hasContent && deps.now() - lastWrite >= (settings.persistEveryMs ?? 1000)) {
          lastWrite = deps.now();
          pendingWrite = pendingWrite.then(() => persistence.update(message.id, { blocks })).catch(() => undefined);
        }
      },
      signal,
    );
    latest = result.blocks;
    await pendingWrite;
    message = await persistence.update(message.id, {
      blocks: result.blocks,
      status: 'complete',
      trace: [trace({ usage: result.usage, stopReason: result.stopReason ?? undefined })],
    });
    deps.onMessage?.(message);
    return { message, stopReason: result.stopReason };
  } catch (error) {
    await pendingWrite;
    const stopped = signal.aborted;
    // A model error, or storage refusing the finished answer (a full disk), says itself what went wrong.
    const text = stopped
      ? STOPPED_NOTE
      : error instanceof AppError
        ? error.message
        : `The model call failed: ${error instanceof Error ? error.message : String(error)}`;
    const ended: MessageChange = {
      blocks: latest,
      status: stopped ? 'interrupted' : 'error',
      error: text,
      trace: [trace({ error: text })],
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

type ToolUse = Extract<ContentBlock, { type: 'tool_use' }>;
type UseResult = { readonly block: Extract<ContentBlock, { type: 'tool_result' }>; readonly trace: TraceEntry[] };

async function runToolUse(
  use: ToolUse,
  offered: ReadonlySet<string>,
  requested: AgentTool[],
  deps: TurnDeps,
  signal: AbortSignal,
  progress?: (toolUseId: string, entries: readonly TraceEntry[]) => void,
): Promise<UseResult> {
  const input = use.input;
  const isObject = typeof input === 'object' && input !== null && !Array.isArray(input);
  const refuse = (message: string, extra: Partial<ToolCallTrace> = {}): UseResult => {
    const result = failedResult({ kind: 'invalid-arguments', message }, 0);
    return { block: toToolResultBlock(use.id, result), trace: [toolTrace(use, result, extra)] };
  };
  if (!isObject)
    return refuse(
      `The input for ${use.name} is not a JSON object, so the tool was not called. Send the arguments as an object.`,
    );
  const args = input as Record<string, unknown>;

  if (use.name === TOOL_SEARCH_NAME) {
    const outcome = await deps.tools
      .runSearch(args)
      .catch(() => ({ query: '', content: 'The tool search failed; try again.', isError: true, hits: [] }));
    for (const hit of outcome.hits)
      if (!requested.some((t) => t.modelName === hit.tool.modelName)) requested.push(hit.tool);
    const content =
      typeof outcome.content === 'string' ? [{ type: 'text' as const, text: outcome.content }] : [...outcome.content];
    return {
      block: { type: 'tool_result', tool_use_id: use.id, content, ...(outcome.isError ? { is_error: true } : {}) },
      trace: [
        {
          kind: 'tool-search',
          query: outcome.query,
          strategy: deps.tools.strategy,
          picks: outcome.hits.map((h) => ({ name: h.tool.modelName, score: h.score })),
        },
      ],
    };
  }

  if (use.name === EXECUTE_CODE_NAME && deps.code)
    return runCodeUse(use, args, deps, signal, deps.code, (entries) => progress?.(use.id, entries));

  const tool = deps.tools.allTools().find((t) => t.modelName === use.name);
  if (!tool)
    return refuse(
      `There is no tool named ${use.name} in this thread (its server is not enabled here, or it does not exist). It was not called.`,
    );
  if (!offered.has(tool.modelName))
    return refuse(
      `The tool ${use.name} is not loaded in this thread; find it with ${TOOL_SEARCH_NAME} first. It was not called.`,
    );

  const { result, trace } = await callWithApproval(tool, args, use, deps, signal);
  return {
    block: toToolResultBlock(use.id, result, deps.settings.resultCapChars ?? DEFAULT_RESULT_CAP),
    trace: [trace],
  };
}

/**
 * Calls a tool the way every call of the turn goes: the approval policy first (asking the person when it says so,
 * remembering "allow for this thread" and "always allow"), then the tool. A denial is an error result.
 */
async function callWithApproval(
  tool: AgentTool,
  args: Record<string, unknown>,
  use: ToolUse,
  deps: TurnDeps,
  signal: AbortSignal,
  caller?: CodeCaller,
): Promise<{ result: ToolCallResult; trace: ToolCallTrace }> {
  const hash = await deps.hash(definitionText(tool));
  const policy = decideApproval(tool, hash, deps.approvals);
  let approval: ToolCallTrace['approval'];
  if (policy.decision === 'allow') approval = { decision: 'auto-allow', by: policy.by };
  else {
    const decision = await deps
      .askApproval({ tool, arguments: args, toolUseId: use.id, ...(caller ? { caller } : {}) }, signal)
      .catch(() => 'deny' as const);
    approval = { decision, by: 'person' };
    // Remembering is best-effort: a failed write must not lose the call's result.
    if (decision === 'allow-thread') {
      deps.approvals.thread[toolKey(tool)] = approvalFor(tool, hash);
      await deps.persistence.allowForThread(toolKey(tool), approvalFor(tool, hash)).catch(() => undefined);
    }
    if (decision === 'allow-always') {
      deps.approvals.always[toolKey(tool)] = approvalFor(tool, hash);
      await deps.persistence.allowAlways(toolKey(tool), approvalFor(tool, hash)).catch(() => undefined);
    }
    if (decision === 'deny') {
      const denied = failedResult(
        { kind: 'tool-disabled', message: `The person declined to run ${tool.toolName}: the call was denied.` },
        0,
      );
      return { result: denied, trace: toolTrace(use, denied, { serverId: tool.serverId, approval }) };
    }
  }
  const result: ToolCallResult = await deps.runTool(tool, args, signal);
  await deps.tools.markUsed([tool]).catch(() => undefined);
  return { result, trace: toolTrace(use, result, { serverId: tool.serverId, approval }) };
}

/** execute_code: the model's code in the sandbox, each of its tool calls through callWithApproval. */
function runCodeUse(
  use: ToolUse,
  args: Record<string, unknown>,
  deps: TurnDeps,
  signal: AbortSignal,
  code: CodeSetup,
  onProgress: (entries: readonly TraceEntry[]) => void,
) {
  let count = 0;
  return runExecuteCode(
    { id: use.id, input: args },
    {
      open: code.open,
      limits: code.limits,
      now: deps.now,
      onProgress,
      access: {
        tools: () => deps.tools.allTools(),
        search: (input) => deps.tools.runSearch(input),
        call: (tool, toolArgs, caller, callSignal) =>
          callWithApproval(
            tool,
            toolArgs,
            { type: 'tool_use', id: `${use.id}:${++count}`, name: tool.modelName, input: toolArgs },
            deps,
            callSignal,
            caller,
          ),
      },
    },
    signal,
  );
}

function toolTrace(use: ToolUse, result: ToolCallResult, extra: Partial<ToolCallTrace>): ToolCallTrace {
  return {
    kind: 'tool-call',
    toolUseId: use.id,
    tool: use.name,
    arguments: use.input,
    resultSummary: summarize(result),
    isError: result.isError,
    durationMs: result.durationMs,
    ...(result.failure ? { error: result.failure.message } : {}),
    ...extra,
  };
}

function definitionOf(tool: AgentTool): ModelToolDefinition {
  return { name: tool.modelName, description: tool.description, input_schema: tool.inputSchema };
}

/**
 * Prompt caching: a breakpoint on the last tool that is in the prompt caches the tool list. Deferred tools are not in the
 * prompt and the API refuses `cache_control` beside `defer_loading` (tool-use-with-prompt-caching docs).
 */
function withCacheControl(definitions: readonly ModelToolDefinition[]): ModelToolDefinition[] {
  const last = definitions.findLastIndex((d) => d.defer_loading !== true);
  return definitions.map((d, i) => (i === last ? { ...d, cache_control: { type: 'ephemeral' } } : d));
}
