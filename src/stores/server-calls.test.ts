// The calls in flight by server and thread: a server may ask the person only during one, and only in its thread.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Registry } from '../mcp/registry';
import type { ToolCallResult } from '../domain/tool-result';
import { HELD_REFRESH_MS, type FloodGuard } from './flood-guard';
import { trackServerCalls } from './server-calls';

type CallOptions = NonNullable<Parameters<Registry['callTool']>[3]>;
type Progress = Parameters<NonNullable<CallOptions['onProgress']>>[0];

/** A registry whose calls answer only when told to. */
function heldRegistry() {
  const answers: (() => void)[] = [];
  const registry = {
    callTool: () =>
      new Promise<ToolCallResult>((resolve) =>
        answers.push(() => resolve({ content: [] } as unknown as ToolCallResult)),
      ),
  } as unknown as Registry;
  return { registry, answerAll: () => answers.splice(0).forEach((answer) => answer()) };
}

describe('the calls of a server in flight', () => {
  it("are kept with their thread and caller while they run, and settle when they answer; a call that is no thread's is not kept", async () => {
    const { registry, answerAll } = heldRegistry();
    const calls = trackServerCalls(registry);
    const ofTurn = calls.registry.callTool('s', 'a', {}, { from: { threadId: 'A', isApp: false } });
    const ofApp = calls.registry.callTool('s', 'b', {}, { from: { threadId: 'B', isApp: true } });
    const nobodys = calls.registry.callTool('s', 'c', {});
    expect(calls.running('s').map(({ threadId, isTurn }) => [threadId, isTurn])).toEqual([
      ['A', true],
      ['B', false],
    ]);
    expect(calls.running('other')).toEqual([]);
    expect(calls.isTurnCalling('s', 'A')).toBe(true);
    expect(calls.isTurnCalling('s', 'B')).toBe(false); // B's call is its app's, not its turn's.
    const settled = Promise.all(calls.running('s').map((c) => c.settled));

    answerAll();
    await Promise.all([ofTurn, ofApp, nobodys, settled]);
    expect(calls.running('s')).toEqual([]);
    expect(calls.isTurnCalling('s', 'A')).toBe(false);
  });
});

describe("the person's reads of a server (a prompt, a resource) counted as its calls", () => {
  it("are kept with their thread, as no turn's, while they run; a read that is no thread's is not kept", async () => {
    const calls = trackServerCalls({} as Registry);
    let answer!: (text: string) => void;
    const read = calls.countAsCall('s', 'B', () => new Promise<string>((resolve) => (answer = resolve)));
    const nobodys = calls.countAsCall('t', undefined, async () => 'done');
    expect(calls.running('s').map(({ threadId, isTurn }) => [threadId, isTurn])).toEqual([['B', false]]);
    expect(calls.isTurnCalling('s', 'B')).toBe(false); // A read may not start sampling, which needs a turn.
    expect(calls.running('t')).toEqual([]);
    const [running] = calls.running('s');
    answer('read');
    expect(await read).toBe('read');
    await running!.settled;
    expect(calls.running('s')).toEqual([]);
    expect(await nobodys).toBe('done');
  });
});

afterEach(() => vi.useRealTimers());

describe('a held-back server’s progress', () => {
  it('never goes backwards: a value held while flooding is dropped once a newer one passes (review)', async () => {
    vi.useFakeTimers();
    let isAdmitted = false;
    const guard = { admit: () => isAdmitted } as unknown as FloodGuard;
    let report: ((progress: Progress) => void) | undefined;
    let finish: (() => void) | undefined;
    const registry = {
      callTool: (_server: string, _tool: string, _args: unknown, options?: CallOptions) => {
        report = options?.onProgress;
        return new Promise((resolve) => (finish = () => resolve({ content: [] })));
      },
    } as unknown as Registry;
    const shown: number[] = [];
    const { registry: tracked } = trackServerCalls(registry, guard);
    const call = tracked.callTool('flood', 'crunch', {}, { onProgress: (p) => shown.push(p.progress) });
    report!({ progress: 1 }); // Held back: shown within a second unless a newer one passes.
    isAdmitted = true;
    report!({ progress: 2 });
    vi.advanceTimersByTime(HELD_REFRESH_MS * 2);
    expect(shown).toEqual([2]);
    finish!();
    await call;
  });
});
