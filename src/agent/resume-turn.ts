import { unansweredCalls } from '../domain/unanswered-calls';
import { continueTurn, runToolUse, type TurnDeps, type TurnOutcome } from './run-turn';

/**
 * Goes on with a turn cut off after the model asked for tools but before their results were stored (the page was
 * reloaded while a call waited for approval, or ran). Every such call is asked about again, whatever was allowed
 * before: it may have been waiting for exactly that answer, and a call that was running may have run already. Denied
 * or stopped, the call gets a "declined" result, so the history stays whole. Resolves to undefined when the thread
 * does not end in unanswered calls.
 */
export async function resumeTurn(
  userText: string,
  deps: TurnDeps,
  signal: AbortSignal,
): Promise<TurnOutcome | undefined> {
  const history = await deps.persistence.history();
  const calls = unansweredCalls(history);
  const answer = history.at(-1);
  if (calls.length === 0 || !answer) return undefined;
  // The tools the model was offered in that call (recorded in its trace) are the ones it may call.
  const offered = new Set(answer.trace.flatMap((entry) => (entry.kind === 'model-call' ? entry.toolNames : [])));
  const askAgain: TurnDeps = { ...deps, approvals: { always: {}, thread: {} } };
  const results = await Promise.all(calls.map((use) => runToolUse(use, offered, [], askAgain, signal)));
  const trace = [...answer.trace, ...results.flatMap((result) => result.trace)];
  const updated = await deps.persistence.update(answer.id, { trace });
  deps.onMessage?.(updated);
  const stored = await deps.persistence.append({
    role: 'user',
    blocks: results.map((result) => result.block),
    status: 'complete',
  });
  deps.onMessage?.(stored);
  if (signal.aborted) return { status: 'stopped' };
  return continueTurn(userText, deps, signal);
}
