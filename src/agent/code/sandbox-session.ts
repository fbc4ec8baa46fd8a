import { SandboxMessage, type CodeLimits, type SandboxError } from '../../domain/code-execution';
import {
  realTimers,
  type OpenSandbox,
  type CodeRunAsked,
  type SandboxChannel,
  type SessionTimers,
} from './sandbox-port';

/** What an inner tool call answers the code: a value, or the message of the Error it rejects with. */
export type InnerAnswer =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

export interface CodeRunRequest {
  readonly code: string;
  readonly limits: CodeLimits;
  /** Runs one call the code makes (`tools[name](args)`); never throws. */
  call(name: string, args: unknown, signal: AbortSignal): Promise<InnerAnswer>;
  /**
   * While the person is asked about this code's calls, the time limit's clock stops (the code waits on the person,
   * not on itself).
   */
  readonly personAsked?: CodeRunAsked;
}

export type CodeRunStatus = 'returned' | 'threw' | 'timeout' | 'stopped' | 'crashed';

export interface CodeRunOutcome {
  readonly status: CodeRunStatus;
  /** The returned value as JSON text (absent when nothing was returned). */
  readonly value?: string;
  readonly error?: SandboxError;
  readonly logs: readonly string[];
  readonly isLogCapped: boolean;
  /** Calls the code asked for, those past the limit included. */
  readonly calls: number;
  readonly isCallLimitHit: boolean;
}

/**
 * Runs code in a fresh sandbox until it returns, throws, runs out of time or is stopped; the sandbox is closed
 * afterwards in every case, and inner calls still running are cancelled. Time the person is asked about the code's
 * calls (an inner call's approval; a server's form while one of its calls runs) does not count against the limit.
 */
export async function runCode(
  open: OpenSandbox,
  request: CodeRunRequest,
  signal: AbortSignal,
  timers: SessionTimers = realTimers,
): Promise<CodeRunOutcome> {
  const inner = new AbortController();
  const logs: string[] = [];
  let isLogCapped = false;
  let calls = 0;
  /** The code's calls running now (a server's question counts only while one runs). */
  let calling = 0;
  let isCallLimitHit = false;
  const outcome = (status: CodeRunStatus, extra: Partial<CodeRunOutcome> = {}): CodeRunOutcome => ({
    status,
    logs,
    isLogCapped,
    calls,
    isCallLimitHit,
    ...extra,
  });
  if (signal.aborted) return outcome('stopped');
  let channel: SandboxChannel;
  try {
    channel = await open(signal);
  } catch (error) {
    const message = `The code sandbox could not start: ${error instanceof Error ? error.message : String(error)}`;
    return outcome(signal.aborted ? 'stopped' : 'crashed', { error: { name: 'Error', message } });
  }
  return new Promise<CodeRunOutcome>((resolve) => {
    let isOver = false;
    const finish = (result: CodeRunOutcome) => {
      if (isOver) return;
      isOver = true;
      pause();
      stopWatching();
      signal.removeEventListener('abort', onStop);
      inner.abort();
      channel.close();
      resolve(result);
    };
    const onStop = () => finish(outcome('stopped'));
    // The time limit's clock: it runs while nobody is asked anything, and keeps what is left while it stands.
    let left = request.limits.timeoutMs;
    let clock: { readonly timer: unknown; readonly since: number } | undefined;
    const pause = () => {
      if (!clock) return;
      timers.clear(clock.timer);
      left -= timers.now() - clock.since;
      clock = undefined;
    };
    const follow = () => {
      if (isOver) return;
      if (request.personAsked?.isAsked(calling > 0)) return pause();
      if (!clock)
        clock = { timer: timers.set(() => finish(outcome('timeout')), Math.max(0, left)), since: timers.now() };
    };
    const stopWatching = request.personAsked?.subscribe(follow) ?? (() => undefined);
    follow();
    signal.addEventListener('abort', onStop, { once: true });
    const answer = (id: number, reply: InnerAnswer) => {
      if (isOver) return;
      channel.post(reply.ok ? { type: 'result', id, ok: true, value: reply.value } : { type: 'result', id, ...reply });
    };
    channel.listen((raw) => {
      if (isOver) return;
      const parsed = SandboxMessage.safeParse(raw);
      if (!parsed.success)
        return finish(
          outcome('crashed', { error: { name: 'Error', message: 'The code sandbox sent a malformed message.' } }),
        );
      const message = parsed.data;
      if (message.type === 'log') {
        logs.push(message.text);
        isLogCapped ||= message.isCapped;
      } else if (message.type === 'call') {
        calls += 1;
        if (calls > request.limits.maxCalls) {
          isCallLimitHit = true;
          return answer(message.id, {
            ok: false,
            error: `Not called: this code already made ${request.limits.maxCalls} tool calls, the limit for one execute_code call.`,
          });
        }
        calling += 1;
        follow();
        void request
          .call(message.name, message.args, inner.signal)
          .then(
            (reply) => answer(message.id, reply),
            (error: unknown) =>
              answer(message.id, { ok: false, error: error instanceof Error ? error.message : String(error) }),
          )
          .finally(() => {
            calling -= 1;
            follow();
          });
      } else if (message.ok) finish(outcome('returned', message.value === undefined ? {} : { value: message.value }));
      else finish(outcome('threw', { error: message.error }));
    });
    channel.post({ type: 'run', code: request.code, logLimit: request.limits.outputChars });
  });
}
