import { isServerCompactionModel } from '../agent/compaction';
import { composeSystemPrompt } from '../agent/system-prompt';
import type { TurnDeps, TurnPersistence } from '../agent/turn-deps';
import type { ModelPort, ModelRetry } from '../agent/model-port';
import { withAttachmentBlocks, type LoadAttachment } from '../agent/attachment-blocks';
import { DEFAULT_CODE_LIMITS, resolveCodeExecutionMode, type CodeExecutionMode } from '../domain/code-execution';
import { appContextNote } from '../domain/app-context';
import { NotFoundError } from '../domain/errors';
import { logFailure, silentLogger, type Logger } from '../domain/logger';
import { hasStoppedReconnecting } from '../domain/mcp-errors';
import type { ThreadTools } from '../domain/thread-tools';
import type { ThreadConfig } from '../domain/thread-config';
import type { UserConfig } from '../domain/user-config';
import { resolveToolSearchSettings } from '../domain/tool-search-settings';
import type { Storage } from '../storage/storage';
import { threadInstructions } from './server-instructions';
import { profileModel } from './profile-model';
import { createThreadTools } from './thread-tools';
import { turnBranch } from './turn-branch';
import type { SendOptions, TurnRunnerDeps } from './turn-runner';

const CONTEXT_WINDOW_TOKENS = 200_000;
/** How long a turn waits for a server the app had stopped trying to reconnect to. */
const RECONNECT_AT_TURN_MS = 5_000;

/** The agent's dependencies for one turn of the thread: model, tools, storage, approvals and settings. */
export async function prepareTurn(
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
  // A server enabled here that was never listed has no catalog yet: connect it so its tools can be found. One connected
  // without its stream (no live updates) has its tools read again, at most once a minute. One the app stopped trying
  // to reconnect to is tried once more (it may have been restarted, its tools changed), waited for a short while
  // only: still down, the turn goes on without it and its status says so. Stop ends the wait.
  const servers = enabledNow().map((id) => ({ id, server: deps.registry.get(id) }));
  const firstListings = Promise.all(
    servers
      .filter(({ server }) => !server?.catalog || server.state.liveUpdates === false)
      .map(({ id }) => deps.registry.connect(id)),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const retries = Promise.race([
    Promise.all(
      servers
        .filter(({ server }) => server?.catalog && hasStoppedReconnecting(server.state.lastError))
        .map(({ id }) => deps.registry.connect(id)),
    ),
    new Promise((resolve) => (timer = setTimeout(resolve, RECONNECT_AT_TURN_MS))),
  ]).finally(() => clearTimeout(timer));
  await Promise.race([
    Promise.all([firstListings, retries]),
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
  // What the apps said goes after the conversation, not into the system prompt: it changes between turns (the cached
  // prefix stays whole) and it is the apps' words, not the thread's instructions.
  const appContext = appContextNote(thread.appContexts, enabledNow());
  const logger = deps.logger ?? silentLogger;
  const tools = threadToolsOf(deps, thread, profile, enabledNow, options);
  const modelId = thread.model ?? prefs.model ?? deps.defaults.model;
  return {
    // Every call of the turn (answers, compaction) tells the person when the API made it wait and retry.
    model: options.onModelRetry ? withRetryWatch(model, options.onModelRetry) : model,
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
      ...(instructed ? { system: instructed } : {}),
      ...(appContext ? { trailingContext: appContext } : {}),
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
    ...(deps.indexSettled ? { indexSettled: deps.indexSettled } : {}),
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
  const limits = deps.codeLimits ?? DEFAULT_CODE_LIMITS;
  return {
    code: { open: deps.openCodeSandbox, limits, ...(deps.personAsked ? { personAsked: deps.personAsked } : {}) },
  };
}

/** The model with `onRetry` given to each of its calls. */
function withRetryWatch(model: ModelPort, onRetry: (retry: ModelRetry | undefined) => void): ModelPort {
  return {
    ...model,
    stream: (request, onSnapshot, signal) => model.stream(request, onSnapshot, signal, onRetry),
  };
}
