import type { AttachmentRef } from '../domain/attachment';
import type { ContentBlock, Message } from '../domain/message';
import { executeCodeDefinition } from './code/execute-code';
import { anthropicCodeTraces, pendingContainer, withProgrammaticCalling } from './code/anthropic-code';
import { liveTrace, runAnyUse } from './tool-uses';
export { runToolUse, type UseResult } from './tool-uses';
import { modelCall } from './model-call';
import type { TurnDeps, TurnOutcome } from './turn-deps';

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
    if (toolUses.length === 0 || answer.stopReason !== 'tool_use') {
      const note = cutShortNote(answer.stopReason, settings.maxTokens);
      if (note) notify(deps, await persistence.update(answer.message.id, { error: note }));
      return { status: 'done' };
    }
    // Inner calls of execute_code show on the answer while its code still runs, and each call's trace as soon as it
    // ends, while others of the batch still run or wait for approval (all stored with the results below).
    const progress = liveTrace(deps, answer.message);
    const results = await Promise.all(
      toolUses.map((use) => runAnyUse(use, deps, signal, (entries) => progress(use.id, entries))),
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

/**
 * What the person should know of an answer that ended before it was done (shown under it): the length limit, the
 * context window, or a refusal; undefined for an answer that finished.
 */
export function cutShortNote(stopReason: string | null, maxTokens: number): string | undefined {
  if (stopReason === 'max_tokens')
    return `Cut short: the answer reached the longest one allowed (${maxTokens.toLocaleString('en-US')} tokens). Ask to continue for the rest.`;
  if (stopReason === 'model_context_window_exceeded')
    return "Cut short: the answer filled the rest of the model's context window.";
  if (stopReason === 'refusal') return 'Claude declined to go on with this answer.';
  return undefined;
}

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
