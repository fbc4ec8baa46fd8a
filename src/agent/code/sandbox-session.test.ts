// The executor with the Node stand-in of the sandbox (same runtime and protocol as the browser's frame; the frame
// itself is tested in Chromium: test/e2e/code-execution.e2e.test.ts).
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNodeSandbox } from '../../../test/fakes/node-code-sandbox';
import { listenOnLoopback, type LoopbackListener } from '../../../test/fixtures/listen-loopback';
import { DEFAULT_CODE_LIMITS, type CodeLimits } from '../../domain/code-execution';
import type { CodeRunAsked, SessionTimers } from './sandbox-port';
import { runCode, type CodeRunRequest, type InnerAnswer } from './sandbox-session';

const limits: CodeLimits = { ...DEFAULT_CODE_LIMITS, timeoutMs: 20_000 };
const echo = (name: string, args: unknown): Promise<InnerAnswer> =>
  Promise.resolve({ ok: true, value: { name, args } });
const run = (
  code: string,
  options: {
    limits?: Partial<CodeLimits>;
    signal?: AbortSignal;
    call?: (n: string, a: unknown, s: AbortSignal) => Promise<InnerAnswer>;
  } = {},
) =>
  runCode(
    openNodeSandbox,
    { code, limits: { ...limits, ...options.limits }, call: options.call ?? echo },
    options.signal ?? new AbortController().signal,
  );

let listener: LoopbackListener;
let hits = 0;
beforeAll(async () => {
  listener = await listenOnLoopback(createServer((_req, res) => void (hits++, res.end('reached'))));
});
afterAll(() => listener?.close());

describe('the code sandbox', () => {
  it('refuses the network, storage, the page and the host: every attempt errors and nothing reaches a listening server', async () => {
    const url = `http://127.0.0.1:${listener.port}/`;
    const outcome = await run(`
      const attempts = {
        fetch: () => fetch(${JSON.stringify(url)}),
        xhr: () => new XMLHttpRequest().open('GET', ${JSON.stringify(url)}),
        websocket: () => new WebSocket(${JSON.stringify(url.replace('http', 'ws'))}),
        importScripts: () => importScripts(${JSON.stringify(url)}),
        indexedDB: () => indexedDB.open('vault'),
        caches: () => caches.open('x'),
        document: () => document.cookie,
        localStorage: () => localStorage.getItem('x'),
        process: () => process.env,
        require: () => require('node:http').get(${JSON.stringify(url)}),
      };
      const refused = {};
      for (const [name, attempt] of Object.entries(attempts)) {
        try { await attempt(); refused[name] = false; } catch (e) { refused[name] = e instanceof Error; }
      }
      return refused;`);
    expect(outcome.status).toBe('returned');
    const refused = JSON.parse(outcome.value!) as Record<string, boolean>;
    expect(Object.keys(refused)).toHaveLength(10);
    for (const [name, isRefused] of Object.entries(refused))
      expect({ name, isRefused }).toEqual({ name, isRefused: true });
    expect(hits).toBe(0);
  });

  it('ends an endless loop at the time limit while this thread stays responsive', async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    const started = Date.now();
    const outcome = await run('while (true) {}', { limits: { timeoutMs: 1500 } });
    clearInterval(ticker);
    expect(outcome.status).toBe('timeout');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    expect(ticks).toBeGreaterThan(0);
  });

  it('gives the code tool results and returns only the value and the logged lines', async () => {
    const outcome = await run(`
      const a = await tools.mcp__w__forecast({ city: 'Oslo' });
      console.log('got', a.name);
      return { city: a.args.city };`);
    expect(outcome).toMatchObject({
      status: 'returned',
      value: '{"city":"Oslo"}',
      logs: ['got mcp__w__forecast'],
      calls: 1,
    });
  });

  it('reports a syntax error, a throw and an unserializable value with their line', async () => {
    expect((await run('const a = 1;\nconst b = ;\nreturn a;')).error).toMatchObject({ name: 'SyntaxError', line: 2 });
    expect((await run('const a = 1;\n\nnull.x;')).error).toMatchObject({ name: 'TypeError', line: 3 });
    const failing = (await run('const o = {};\no.self = o;\nreturn o;')).error;
    expect(failing?.message).toMatch(/cycle/);
    expect((await run('return { f() {} };')).error?.message).toMatch(/function/);
    const rejected = await run('await tools.nope({});', {
      call: () => Promise.resolve({ ok: false, error: 'There is no tool named nope' }),
    });
    expect(rejected).toMatchObject({ status: 'threw', error: { message: 'There is no tool named nope', line: 1 } });
  });

  it('refuses calls past the call limit inside the code', async () => {
    const outcome = await run(
      `const out = [];
       for (let i = 0; i < 4; i++) { try { await tools.t({ i }); out.push('ok'); } catch (e) { out.push(e.message); } }
       return out;`,
      { limits: { maxCalls: 2 } },
    );
    const results = JSON.parse(outcome.value!) as string[];
    expect(results.slice(0, 2)).toEqual(['ok', 'ok']);
    expect(results[2]).toMatch(/already made 2 tool calls, the limit/);
    expect(outcome).toMatchObject({ calls: 4, isCallLimitHit: true });
  });

  it('caps logged output, saying so', async () => {
    const outcome = await run('for (let i = 0; i < 1000; i++) console.log("x".repeat(100));', {
      limits: { outputChars: 1000 },
    });
    expect(outcome.isLogCapped).toBe(true);
    expect(outcome.logs.join('\n').length).toBeLessThanOrEqual(1000);
  });

  it('Stop ends the code at once and cancels the inner call in flight', async () => {
    const stop = new AbortController();
    let innerSignal: AbortSignal | undefined;
    const outcome = await run('await tools.slow({}); while (true) {}', {
      signal: stop.signal,
      call: (_name, _args, signal) => {
        innerSignal = signal;
        stop.abort();
        return new Promise(() => undefined);
      },
    });
    expect(outcome.status).toBe('stopped');
    expect(innerSignal?.aborted).toBe(true);
  });

  describe('while the person is asked something (an inner call’s approval, a server’s form)', () => {
    /** A clock the test moves, and a page whose asking the test switches. */
    function world() {
      let now = 0;
      let due: { at: number; run: () => void }[] = [];
      const timers: SessionTimers = {
        set: (run, ms) => {
          const entry = { at: now + ms, run };
          due.push(entry);
          return entry;
        },
        clear: (handle) => (due = due.filter((entry) => entry !== handle)),
        now: () => now,
      };
      const advance = (ms: number) => {
        now += ms;
        for (const entry of due.filter((e) => e.at <= now)) {
          due = due.filter((e) => e !== entry);
          entry.run();
        }
      };
      // What the page asks: about this code's calls (an approval), or a server's question, which counts only while one
      // of the code's calls runs.
      let isAsked = false;
      let isServerAsking = false;
      const listeners = new Set<() => void>();
      const personAsked: CodeRunAsked = {
        isAsked: (isCalling) => isAsked || (isCalling && isServerAsking),
        subscribe: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
      };
      const notify = () => listeners.forEach((listener) => listener());
      const ask = (asked: boolean) => ((isAsked = asked), notify());
      const serverAsks = (asking: boolean) => ((isServerAsking = asking), notify());
      /** Runs `code` with a one-second limit on this world's clock, its calls answered by `call`. */
      const run = (code: string, call: CodeRunRequest['call']) =>
        runCode(
          openNodeSandbox,
          { code, limits: { ...limits, timeoutMs: 1000 }, personAsked, call },
          new AbortController().signal,
          timers,
        );
      return { run, advance, ask, serverAsks, listeners };
    }

    it('the time limit stands still: code waiting minutes on an approval still gets its answer', async () => {
      const { run, advance, ask, listeners } = world();
      const outcome = await run('return await tools.mcp__calc__add({ a: 1, b: 2 });', async () => {
        ask(true);
        advance(300_000); // Five minutes with the approval open.
        ask(false);
        return { ok: true, value: 3 };
      });
      expect(outcome).toMatchObject({ status: 'returned', value: '3' });
      expect(listeners.size).toBe(0); // It stops listening once the code ends.
    });

    it('the time used before the question still counts, and the clock goes on with what was left', async () => {
      const { run, advance, ask } = world();
      let hasEnded = false;
      let reachedCall: () => void = () => {};
      const called = new Promise<void>((resolve) => (reachedCall = resolve));
      const running = run(
        'await tools.mcp__calc__add({ a: 1, b: 2 }); return "never";',
        () => (reachedCall(), new Promise<never>(() => {})), // Never answers.
      ).then((outcome) => ((hasEnded = true), outcome));
      await called;
      advance(400);
      ask(true);
      advance(60_000);
      ask(false);
      advance(599);
      await new Promise((resolve) => setImmediate(resolve));
      expect(hasEnded).toBe(false);
      advance(1);
      expect((await running).status).toBe('timeout');
    });

    it('a server’s question while none of the code’s calls runs does not stop the clock: an endless loop still ends', async () => {
      const { run, advance, serverAsks } = world();
      serverAsks(true); // A form of another turn's call, say: this code has no call running.
      let hasStarted: () => void = () => {};
      const started = new Promise<void>((resolve) => (hasStarted = resolve));
      const running = run(
        'await tools.mcp__calc__add({ a: 1, b: 2 }); while (true) {}',
        async () => (hasStarted(), { ok: true, value: 3 }),
      );
      await started;
      await new Promise((resolve) => setImmediate(resolve)); // The call's answer is back: no call runs now.
      advance(1000);
      expect((await running).status).toBe('timeout');
    });
  });
});
