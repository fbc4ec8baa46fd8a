import type { ModelPort, ModelRetry } from '../agent/model-port';
import { continueTurn, runTurn, runTurnWithMessages, TAB_CLOSED_NOTE } from '../agent/run-turn';
import type { TurnOutcome } from '../agent/turn-deps';
import { resumeTurn } from '../agent/resume-turn';
import type { AttachmentRef } from '../domain/attachment';
import type { OpenSandbox, PersonAsked } from '../agent/code/sandbox-port';
import type { AppConfig } from '../domain/app-config';
import type { CodeExecutionMode, CodeLimits } from '../domain/code-execution';
import type { Logger } from '../domain/logger';
import type { Message } from '../domain/message';
import type { PromptTurnMessage } from '../domain/prompt-blocks';
import type { ToolProgress } from '../domain/tool-result';
import type { TraceEntry } from '../domain/trace';
import { unansweredCalls } from '../domain/unanswered-calls';
import type { AskApproval } from '../domain/thread-tools';
import type { Registry } from '../mcp/registry';
import { createLocalLocks, type Locks } from '../platform/locks';
import type { ToolIndex } from '../search/tool-index';
import type { Storage } from '../storage/storage';
import { prepareTurn } from './prepare-turn';
import { retryPlan } from './retry-plan';

export interface TurnRunnerDeps {
  readonly storage: Storage;
  readonly registry: Registry;
  readonly index: ToolIndex;
  /** Resolves once the index has caught up with the servers' tools (tool-index-sync.ts); a search waits for it. */
  readonly indexSettled?: () => Promise<void>;
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
  /** Whether this page asks the person something now: the code's time limit stands still meanwhile. */
  readonly personAsked?: PersonAsked;
  /** Locks shared by this origin's tabs: a running turn holds its thread's lock (this page only when omitted). */
  readonly locks?: Locks;
  /** Where swallowed failures are reported (silent when omitted). */
  readonly logger?: Logger;
}

const pageLocks = createLocalLocks();
const turnLock = (threadId: string) => `mcp-agent-turn:${threadId}`;

/** Whether no tab runs a turn in the thread now (its turn lock is free; taken and given back at once to know). */
export async function isThreadTurnFree(deps: Pick<TurnRunnerDeps, 'locks'>, threadId: string): Promise<boolean> {
  return (await (deps.locks ?? pageLocks).requestIfFree(turnLock(threadId), () => Promise.resolve(true))) === true;
}

/** Resolves once the turn running in the thread (in any tab) has ended: its lock was free for a moment. */
export async function whenThreadTurnFree(deps: Pick<TurnRunnerDeps, 'locks'>, threadId: string): Promise<void> {
  await (deps.locks ?? pageLocks).request(turnLock(threadId), () => Promise.resolve());
}

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
  /** The API refused an attempt and the client will try again (undefined: the next attempt started). */
  readonly onModelRetry?: (retry: ModelRetry | undefined) => void;
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

/** What a message is sent with besides the turn's options: where it goes in the thread, and its attachments. */
export interface SendMessageOptions extends SendOptions {
  /** The message it follows, on a new branch from there (null: the thread's start); omitted: the shown branch's end. */
  readonly after?: string | null;
  /** Its attachments; their bytes are stored before the message. */
  readonly attachments?: readonly OutgoingAttachment[];
}

/** Runs one turn in a thread with the profile's key, model and tool-search settings, holding the thread's turn lock. */
export function sendMessage(
  deps: TurnRunnerDeps,
  threadId: string,
  text: string,
  options: SendMessageOptions,
): Promise<TurnOutcome> {
  const { after, attachments = [] } = options;
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
 * The failed answers keep their error, trace and what arrived of them (as the error said), marked retried, so the
 * model is not fed half an answer. Resolves to undefined when the thread does not end in a failed answer.
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
          // Its text as it arrived; a tool use cut off with it was never run, and has no card to show.
          blocks: failed.blocks.filter((block) => block.type === 'text'),
          retried: true,
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
