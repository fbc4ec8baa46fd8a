import { describe, expect, it } from 'vitest';
import { MemoryTurnStore, ScriptedModel, agentTool, listChooser } from '../../test/fakes/fake-agent-ports';
import type { Approval } from '../domain/trace';
import { approvalFor, definitionText, toolKey } from './approval-policy';
import type { AskApproval } from './ports';
import { resumeTurn } from './resume-turn';
import type { TurnDeps } from './run-turn';

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

function setup(decision: Approval) {
  const store = new MemoryTurnStore();
  const model = new ScriptedModel([{ blocks: [{ type: 'text', text: 'It is sunny.' }] }]);
  const asked: string[] = [];
  const ran: string[] = [];
  const askApproval: AskApproval = async (request) => (asked.push(request.toolUseId), decision);
  const deps: TurnDeps = {
    model,
    tools: listChooser([weather]),
    runTool: async (tool) => (
      ran.push(tool.toolName),
      { content: [{ type: 'text', text: 'sunny' }], isError: false, durationMs: 1 }
    ),
    askApproval,
    persistence: store,
    approvals: { always: store.alwaysApprovals, thread: store.threadApprovals },
    hash,
    now: () => 0,
    settings: { model: 'claude-test', maxTokens: 1000, maxModelCalls: 5 },
  };
  return { store, model, asked, ran, deps };
}

describe('resumeTurn', () => {
  it('asks about the unanswered call again even when the tool is always allowed, runs it, and lets the model go on', async () => {
    const { store, model, asked, ran, deps } = setup('allow-once');
    await cutOffThread(store);
    store.alwaysApprovals[toolKey(weather)] = approvalFor(weather, await hash(definitionText(weather)));
    expect(await resumeTurn('Weather?', deps, new AbortController().signal)).toEqual({ status: 'done' });
    expect(asked).toEqual(['tu-1']);
    expect(ran).toEqual(['weather']);
    const sent = model.requests[0]!.messages.at(-1)!;
    expect(sent.content).toEqual([expect.objectContaining({ type: 'tool_result', tool_use_id: 'tu-1' })]);
    expect(store.texts().at(-1)).toBe('It is sunny.');
  });

  it('a denied (or stopped) call gets a declined result and is never run; the history stays whole', async () => {
    const { store, ran, deps } = setup('deny');
    await cutOffThread(store);
    const controller = new AbortController();
    const askingThenStopped: TurnDeps = {
      ...deps,
      askApproval: async () => (controller.abort(), 'deny'),
    };
    expect(await resumeTurn('Weather?', askingThenStopped, controller.signal)).toEqual({ status: 'stopped' });
    expect(ran).toEqual([]);
    const results = store.messages.at(-1)!;
    expect(results.blocks).toEqual([
      expect.objectContaining({ type: 'tool_result', tool_use_id: 'tu-1', is_error: true }),
    ]);
    expect(store.messages[1]!.trace.find((e) => e.kind === 'tool-call')).toMatchObject({
      approval: { decision: 'deny' },
    });
  });

  it('does nothing when the thread does not end in unanswered calls', async () => {
    const { store, deps, asked } = setup('allow-once');
    await store.append({ role: 'user', blocks: [{ type: 'text', text: 'Hi' }], status: 'complete' });
    expect(await resumeTurn('Hi', deps, new AbortController().signal)).toBeUndefined();
    expect(asked).toEqual([]);
  });
});
