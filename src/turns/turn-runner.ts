import type { ModelPort } from '../agent/model-port';
import { isServerCompactionModel } from '../agent/compaction';
import { composeSystemPrompt } from '../agent/system-prompt';
import {
  continueTurn,
  runTurn,
  runTurnWithMessages,
  TAB_CLOSED_NOTE,
  type TurnDeps,
  type TurnOutcome,
  type TurnPersistence,
} from '../agent/run-turn';
import { resumeTurn } from '../agent/resume-turn';
import { withAttachmentBlocks, type LoadAttachment } from '../agent/attachment-blocks';
import type { AttachmentRef } from '../domain/attachment';
import type { OpenSandbox } from '../agent/code/sandbox-port';
import type { AppConfig } from '../domain/app-config';
import {
  DEFAULT_CODE_LIMITS,
  resolveCodeExecutionMode,
  type CodeExecutionMode,
  type CodeLimits,
} from '../domain/code-execution';
import { NotFoundError } from '../domain/errors';
import { logFailure, silentLogger, type Logger } from '../domain/logger';
import type { Message } from '../domain/message';
import type { PromptTurnMessage } from '../domain/prompt-blocks';
import type { ToolProgress } from '../domain/tool-result';
import type { TraceEntry } from '../domain/trace';
import { unansweredCalls } from '../domain/unanswered-calls';
import type { AskApproval, ThreadTools } from '../domain/thread-tools';
import type { ThreadConfig } from '../domain/thread-config';
import type { UserConfig } from '../domain/user-config';
import { resolveToolSearchSettings } from '../domain/tool-search-settings';
import type { Registry } from '../mcp/registry';
import { createLocalLocks, type Locks } from '../platform/locks';
import type { ToolIndex } from '../search/tool-index';
import type { Storage } from '../storage/storage';
import { retryPlan } from './retry-plan';
import { threadInstructions } from './server-instructions';
import { profileModel } from './profile-model';
import { createThreadTools } from './thread-tools';
import { turnBranch } from './turn-branch';

const CONTEXT_WINDOW_TOKENS = 200_000;

export interface TurnRunnerDeps {
  readonly storage: Storage;
  readonly registry: Registry;
  readonly index: ToolIndex;
  readonly profileId: string;
  readonly defaults: AppConfig['defaults'];
  /** Builds the model client for a key and base URL (the composition root passes the SDK adapter). */
  readonly createModel: (apiKey: string, baseUrl: string) => ModelPort;
  readonly sha256Hex: (text: string) => Promise<string>;
  readonly now: () => number;
  /** Opens the sandbox for the model's code (execute_code); without it the tool is never offered. */
  readonly openCodeSandbox?: OpenSandbox;
  /** Limits of one execute_code call (defaults: 60 s, 50 tool calls, 20,000 characters of output). */
  readonly codeLimits?: CodeLimits;
  /** Locks shared by this origin's tabs: a running turn holds its thread's lock (this page only when omitted). */
  readonly locks?: Locks;
  /** Where swallowed failures are reported (silent when omitted). */
  readonly logger?: Logger;
  /** What the thread's MCP Apps told the model (ui/update-model-context), added to the system prompt of its next turn. */
  readonly appContext?: (threadId: string) => string | undefined;
}

const pageLocks = createLocalLocks();
const turnLock = (threadId: string) => `mcp-agent-turn:${threadId}`;

/**
 * Marks answers left "streaming" by a tab that closed mid-answer as interrupted (their saved part stays).
 * Only when no tab runs a turn in the thread, so another tab's live answer is never touched.
 */
export async function recoverInterruptedAnswers(
  deps: Pick<TurnRunnerDeps, 'storage' | 'locks'>,
  threadId: string,
): Promise<number> {
  const marked = await (deps.locks ?? pageLocks).requestIfFree(turnLock(threadId), () =>
    deps.storage.messages.markInterrupted(threadId, TAB_CLOSED_NOTE),
  );
  return marked ?? 0;
}

/** An attachment of the message being sent: what the message records, and the bytes to store. */
export interface OutgoingAttachment {
  readonly ref: AttachmentRef;
  readonly blob: Blob;
}

export interface SendOptions {
  readonly askApproval: AskApproval;
  readonly onMessage?: (message: Message) => void;
  /** Progress notifications of tool calls in flight, by tool_use id. */
  readonly onToolProgress?: (toolUseId: string, progress: ToolProgress) => void;
  readonly signal: AbortSignal;
  /** The thread's enabled servers as they are now (the person may switch one off during the turn). */
  readonly enabledServerIds?: () => readonly string[];
  /** Takes the trace of model calls servers made during the turn's tool calls (sampling). */
  readonly takeSideTrace?: () => TraceEntry[];
  /** No stored approval counts: every call is asked about (a turn resumed after a reload). */
  readonly isAskingAboutEveryCall?: boolean;
  /** Where this turn's code runs, over the thread's, the profile's and the app's choice. */
  readonly codeExecution?: CodeExecutionMode;
}

/** The note on an answer whose end could not be saved, once it is retried. */
export const NOT_SAVED_NOTE = 'This answer could not be saved completely.';

/** Runs one turn in a thread with the profile's key, model and tool-search settings, holding the thread's turn lock. */
export function sendMessage(
  deps: TurnRunnerDeps,
  threadId: string,
  text: string,
  options: SendOptions,
  after?: string | null,
  attachments: readonly OutgoingAttachment[] = [],
): Promise<TurnOutcome> {
  return (deps.locks ?? pageLocks).request(turnLock(threadId), async () => {
    const turn = await prepareTurn(deps, threadId, options, after);
    // The bytes are stored first: a full disk refuses the message before anything of it is written.
    await deps.storage.attachments.put(
      threadId,
      attachments.map((a) => ({ id: a.ref.id, blob: a.blob })),
    );
    return runTurn(
      text,
      turn,
      options.signal,
      attachments.map((a) => a.ref),
    );
  });
}

/**
 * Regenerate (issue #22): a new answer to the person's message `personId`, on a new branch beside the answers it has;
 * the model reads only that branch's history up to the message. Undefined when it is not a person's message.
 */
export function regenerateTurn(
  deps: TurnRunnerDeps,
  threadId: string,
  personId: string,
  options: SendOptions,
): Promise<TurnOutcome | undefined> {
  return (deps.locks ?? pageLocks).request(turnLock(threadId), async () => {
    const person = (await deps.storage.messages.listTo(threadId, personId)).items.at(-1);
    const text = person?.id === personId && person.role === 'user' ? personText(person) : undefined;
    if (text === undefined) return undefined;
    return continueTurn(text, await prepareTurn(deps, threadId, options, personId), options.signal);
  });
}

/** A person's words in a message, or undefined for a message of tool results only. */
function personText(message: Message): string | undefined {
  const texts = message.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : []));
  return texts.length > 0 ? texts.join('\n') : undefined;
}

/** Runs one turn that starts with a server prompt's messages (their roles and content kept), holding the thread's lock. */
export function sendPromptMessages(
  deps: TurnRunnerDeps,
  threadId: string,
  messages: readonly PromptTurnMessage[],
  options: SendOptions,
): Promise<TurnOutcome> {
  return (deps.locks ?? pageLocks).request(turnLock(threadId), async () =>
    runTurnWithMessages(messages, await prepareTurn(deps, threadId, options), options.signal),
  );
}

/**
 * Retry: runs the thread's failed turn again from its stored messages, without storing the person's message twice.
 * The failed answers keep their error and trace (what happened) but lose their partial text, so the model is not
 * fed half an answer. Resolves to undefined when the thread does not end in a failed answer.
 */
export function retryTurn(
  deps: TurnRunnerDeps,
  threadId: string,
  options: SendOptions,
): Promise<TurnOutcome | undefined> {
  return (deps.locks ?? pageLocks).request(turnLock(threadId), async () => {
    // Under the thread's lock no turn runs anywhere, so an answer stored as still streaming is one whose end storage
    // refused (a full disk, shown as failed in the tab that ran it): it is retried like a failed one.
    const stored = (await deps.storage.messages.list(threadId)).items.map((m) =>
      m.status === 'streaming' ? { ...m, status: 'error' as const, error: m.error ?? NOT_SAVED_NOTE } : m,
    );
    const plan = retryPlan(stored);
    if (!plan) return undefined;
    const turn = await prepareTurn(deps, threadId, options); // First, so a thread that cannot run keeps its failed answer as it was.
    for (const failed of plan.failed)
      options.onMessage?.(
        await deps.storage.messages.update(failed.id, {
          blocks: [],
          status: 'error',
          ...(failed.error ? { error: failed.error } : {}),
        }),
      );
    return continueTurn(plan.userText, turn, options.signal);
  });
}

/**
 * Goes on with a turn the page left waiting on tool calls (a reload during an approval): asks about each call again,
 * whatever was allowed before (one that was running may have run already), then lets the model go on. Only when no
 * tab runs a turn in the thread; undefined when there is nothing to resume.
 */
export async function resumeUnansweredCalls(
  deps: TurnRunnerDeps,
  threadId: string,
  options: SendOptions,
): Promise<TurnOutcome | undefined> {
  const outcome = await (deps.locks ?? pageLocks).requestIfFree(turnLock(threadId), async () => {
    const stored = (await deps.storage.messages.list(threadId)).items;
    if (unansweredCalls(stored).length === 0) return undefined;
    // The turn's person message: the last user message with text (tool results are user messages too).
    const person = stored.findLast((m) => m.role === 'user' && m.blocks.some((b) => b.type === 'text'));
    const userText = person?.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n') ?? '';
    const turn = await prepareTurn(deps, threadId, { ...options, isAskingAboutEveryCall: true });
    return resumeTurn(userText, turn, options.signal);
  });
  return outcome ?? undefined;
}

/** The agent's dependencies for one turn of the thread: model, tools, storage, approvals and settings. */
async function prepareTurn(
  deps: TurnRunnerDeps,
  threadId: string,
  options: SendOptions,
  after?: string | null,
): Promise<TurnDeps> {
  const { storage } = deps;
  const [thread, profile] = await Promise.all([storage.threads.get(threadId), storage.profiles.get(deps.profileId)]);
  if (!thread) throw new NotFoundError('thread', threadId);
  if (!profile) throw new NotFoundError('profile', deps.profileId);
  const prefs = profile.preferences;
  const enabledNow = options.enabledServerIds ?? (() => thread.enabledServerIds);
  // A server enabled here that was never listed has no catalog yet: connect it so its tools can be found (Stop ends the wait).
  const firstListings = Promise.all(
    enabledNow()
      .filter((id) => !deps.registry.get(id)?.catalog)
      .map((id) => deps.registry.connect(id)),
  );
  await Promise.race([
    firstListings,
    new Promise((resolve) => options.signal.addEventListener('abort', resolve, { once: true })),
  ]);
  // Every model call of the turn is checked against the person's spending limits first (a Retry checks again); the
  // thread's spend cap is read per turn like the rest of its settings, over the calls of every branch.
  const readThread = async () => {
    const stored = await storage.messages.list(threadId);
    return [...stored.items, ...stored.offBranch];
  };
  const { keyModel, model } = await profileModel(deps, prefs, { maxCostUsd: thread.maxCostUsd, readThread });
  const branch = turnBranch(storage, threadId, after);
  // The branch's history with each attachment's stored bytes as the content blocks the API takes.
  const persistence: TurnPersistence = {
    ...branch.persistence,
    history: async () =>
      withAttachmentBlocks(await branch.persistence.history(), loadAttachment(storage, deps.logger ?? silentLogger)),
  };
  const instructed = composeSystemPrompt(thread.systemPrompt, threadInstructions(deps.registry, thread, enabledNow()));
  const appContext = deps.appContext?.(threadId);
  const system = appContext ? [instructed, appContext].filter(Boolean).join('\n\n') : instructed;
  const logger = deps.logger ?? silentLogger;
  const tools = threadToolsOf(deps, thread, profile, enabledNow, options);
  const modelId = thread.model ?? prefs.model ?? deps.defaults.model;
  return {
    model,
    tools,
    compaction: {
      store: {
        // A compaction summarizes the messages before its first kept one: it holds on a branch that has that message.
        list: async () =>
          (await storage.compactions.list(threadId)).items.filter((r) => branch.has(r.firstKeptMessageId)),
        add: (record) => storage.compactions.add(threadId, record),
      },
      settings: {
        // The spending guard wraps calls only; the window comes from the key's own client.
        contextWindow: async () => (await keyModel.contextWindow?.(modelId)) ?? CONTEXT_WINDOW_TOKENS,
        compactAtShare: deps.defaults.compactAtShare,
        isServerCompactionSupported: isServerCompactionModel(modelId),
      },
    },
    ...codeSetup(
      deps,
      resolveCodeExecutionMode({
        ...(options.codeExecution ? { call: options.codeExecution } : {}),
        ...(thread.codeExecution ? { thread: thread.codeExecution } : {}),
        ...(prefs.codeExecution ? { user: prefs.codeExecution } : {}),
        app: deps.defaults.enableProgrammaticCalling,
      }),
      enabledNow().length > 0,
    ),
    persistence,
    logger,
    now: deps.now,
    settings: {
      model: modelId,
      prices: deps.defaults.prices,
      // The answer must have room beyond the thinking budget.
      maxTokens: Math.max(prefs.maxTokens ?? deps.defaults.maxTokens, (thread.thinkingBudget ?? 0) + 1024),
      ...(system ? { system } : {}),
      ...(thread.thinkingBudget ? { thinkingBudget: thread.thinkingBudget } : {}),
      maxModelCalls: thread.maxModelCalls,
    },
    ...(options.onMessage ? { onMessage: options.onMessage } : {}),
    ...(options.onToolProgress ? { onToolProgress: options.onToolProgress } : {}),
    ...(options.takeSideTrace ? { takeSideTrace: options.takeSideTrace } : {}),
  };
}

/** The thread's tools as a turn (or an app of the thread) uses them: its servers, approvals and the profile's settings. */
export function threadToolsOf(
  deps: TurnRunnerDeps,
  thread: ThreadConfig,
  profile: UserConfig,
  enabledNow: () => readonly string[],
  options: Pick<SendOptions, 'askApproval' | 'isAskingAboutEveryCall'>,
): ThreadTools {
  const { storage } = deps;
  const threadId = thread.id;
  // Read per turn: a saved change applies to the next one. The thread's own choices win over the profile's.
  const settings = resolveToolSearchSettings(
    deps.defaults.toolSearch,
    profile.preferences.toolSearch,
    thread.toolSearch,
  );
  const logger = deps.logger ?? silentLogger;
  return createThreadTools({
    registry: deps.registry,
    index: deps.index,
    settings,
    contextWindowTokens: CONTEXT_WINDOW_TOKENS,
    now: deps.now,
    thread,
    enabledServerIds: enabledNow,
    saveLoaded: async (loadedTools) => void (await storage.threads.update(threadId, () => ({ loadedTools }))),
    askApproval: options.askApproval,
    approvals: options.isAskingAboutEveryCall
      ? { always: {}, thread: {} }
      : { always: profile.alwaysAllow, thread: thread.approvals },
    memory: {
      allowForThread: async (key, approval) =>
        void (await storage.threads.update(threadId, (t) => ({ approvals: { ...t.approvals, [key]: approval } }))),
      allowAlways: async (key, approval) =>
        void (await storage.profiles.update(deps.profileId, (p) => ({
          ...p,
          alwaysAllow: { ...p.alwaysAllow, [key]: approval },
        }))),
    },
    hash: deps.sha256Hex,
    logger,
    onTrace: (trace, caller) => logger.debug('tool call', { threadId, caller: caller.kind, trace }),
  });
}

/** Reads an attachment's stored bytes; one that cannot be read is sent as a note that its contents are gone. */
function loadAttachment(storage: Storage, logger: Logger): LoadAttachment {
  return async (id) => {
    try {
      const blob = await storage.attachments.get(id);
      return blob ? new Uint8Array(await blob.arrayBuffer()) : undefined;
    } catch (error) {
      return logFailure(logger, 'Reading an attachment failed', { id })(error);
    }
  };
}

/**
 * Code runs only when the thread has a server enabled (else there is nothing to call): locally, execute_code is
 * offered; with Anthropic, the API's code execution tool (programmatic tool calling).
 */
function codeSetup(
  deps: TurnRunnerDeps,
  mode: CodeExecutionMode,
  hasServers: boolean,
): Pick<TurnDeps, 'code' | 'isAnthropicCode'> {
  if (mode === 'anthropic' && hasServers) return { isAnthropicCode: true };
  if (mode !== 'local' || !hasServers || !deps.openCodeSandbox) return {};
  return { code: { open: deps.openCodeSandbox, limits: deps.codeLimits ?? DEFAULT_CODE_LIMITS } };
}
