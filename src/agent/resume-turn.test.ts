import { describe, expect, it } from 'vitest';
import { MemoryTurnStore, ScriptedModel } from '../../test/fakes/fake-agent-ports';
import { agentTool, listThreadTools } from '../../test/fakes/fake-thread-tools';
import type { AskApproval } from '../domain/thread-tools';
import type { Approval } from '../domain/trace';
import { resumeTurn } from './resume-turn';
import type { TurnDeps } from './turn-deps';

const weather = agentTool('weather');
const hash = async (text: string) => `h${text.length}`;

/** A thread as a reload leaves it: the person's message, then an answer whose call never got a result. */
async function cutOffThread(store: MemoryTurnStore) {
  await store.append({ role: 'user', blocks: [{ type: 'text', text: 'Weather?' }], status: 'complete' });
  await store.append({
    role: 'assistant',
    blocks: [{ type: 'tool_use', id: 'tu-1', name: weather.modelName, input: { city: 'Oslo' } }],
    status: 'complete',
    trace: [
      {
        kind: 'model-call',
        model: 'm',
        toolNames: [weather.modelName],
        toolTokens: 1,
        durationMs: 1,
        stopReason: 'tool_use',
      },
    ],
  });
}

/** The turn as turn-runner resumes it: tools that ask about every call (no stored approval counts). */
function setup(answer: (abort: () => void) => Approval) {
  const store = new MemoryTurnStore();
  const model = new ScriptedModel([{ blocks: [{ type: 'text', text: 'It is sunny.' }] }]);
  const controller = new AbortController();
  const asked: string[] = [];
  const ran: string[] = [];
  const askApproval: AskApproval = async (request) => {
    asked.push(request.toolUseId);
    return answer(() => controller.abort());
  };
  const tools = listThreadTools([weather], {
    askApproval,
    runTool: async (tool) => {
      ran.push(tool.toolName);
      return { content: [{ type: 'text', text: 'sunny' }], isError: false, durationMs: 1 };
    },
    approvals: { always: {}, thread: {} },
    memory: store,
    hash,
  });
  const deps: TurnDeps = {
    model,
    tools,
    persistence: store,
    now: () => 0,
    settings: { model: 'claude-test', maxTokens: 1000, maxModelCalls: 5 },
  };
  return { store, model, asked, ran, deps, signal: controller.signal };
}

describe('resumeTurn', () => {
  it('asks about the unanswered call, runs it once allowed, and lets the model go on with its result', async () => {
    const { store, model, asked, ran, deps, signal } = setup(() => 'allow-once');
    await cutOffThread(store);
    expect(await resumeTurn('Weather?', deps, signal)).toEqual({ status: 'done' });
    expect(asked).toEqual(['tu-1']);
    expect(ran).toEqual(['weather']);
    const sent = model.requests[0]!.messages.at(-1)!;
    expect(sent.content).toEqual([expect.objectContaining({ type: 'tool_result', tool_use_id: 'tu-1' })]);
    expect(store.texts().at(-1)).toBe('It is sunny.');
  });

  it('a call denied as the turn is stopped is never run; it gets a declined result, so the history stays whole', async () => {
    const { store, ran, deps, signal, model } = setup((abort) => (abort(), 'deny'));
    await cutOffThread(store);
    expect(await resumeTurn('Weather?', deps, signal)).toEqual({ status: 'stopped' });
    expect(ran).toEqual([]);
    expect(model.requests).toHaveLength(0);
    expect(store.messages.at(-1)!.blocks).toEqual([
      expect.objectContaining({ type: 'tool_result', tool_use_id: 'tu-1', is_error: true }),
    ]);
    expect(store.messages[1]!.trace.find((e) => e.kind === 'tool-call')).toMatchObject({
      approval: { decision: 'deny' },
    });
  });

  it('does nothing when the thread does not end in unanswered calls', async () => {
    const { store, deps, asked, signal } = setup(() => 'allow-once');
    await store.append({ role: 'user', blocks: [{ type: 'text', text: 'Hi' }], status: 'complete' });
    expect(await resumeTurn('Hi', deps, signal)).toBeUndefined();
    expect(asked).toEqual([]);
  });
});
