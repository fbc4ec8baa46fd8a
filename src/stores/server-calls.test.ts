import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Registry } from '../mcp/registry';
import { HELD_REFRESH_MS, type FloodGuard } from './flood-guard';
import { trackServerCalls } from './server-calls';

type CallOptions = NonNullable<Parameters<Registry['callTool']>[3]>;
type Progress = Parameters<NonNullable<CallOptions['onProgress']>>[0];

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
