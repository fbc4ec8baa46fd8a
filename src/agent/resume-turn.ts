import { unansweredCalls } from '../domain/unanswered-calls';
import { continueTurn } from './run-turn';
import type { TurnDeps, TurnOutcome } from './turn-deps';
import { liveTrace, runAnyUse } from './tool-uses';

/**
 * Goes on with a turn cut off after the model asked for tools but before their results were stored (the page was
 * reloaded while a call waited for approval, or ran). The calls go through the thread's tools again, so they are
 * offered, permitted and approved as in any turn (the caller passes tools that ask about every call: a call may have
 * been waiting for exactly that answer, and one that was running may have run already). Denied or stopped, a call
 * gets a "declined" result, so the history stays whole. Resolves to undefined when the thread does not end that way.
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
  await deps.tools.forCall({ userText }); // Offers this turn's tools again, as the model call that asked had them.
  // execute_code runs its code again: each of its calls is asked about again like any other.
  const progress = liveTrace(deps, answer);
  const results = await Promise.all(
    calls.map((use) => runAnyUse(use, deps, signal, (entries) => progress(use.id, entries))),
  );
  const updated = await deps.persistence.update(answer.id, {
    trace: [...answer.trace, ...results.flatMap((result) => result.trace), ...(deps.takeSideTrace?.() ?? [])],
  });
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
