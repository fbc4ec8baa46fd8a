// Programmatic tool calling, request and response side without the network: the tools a request offers, the
// container it carries, the history it sends back, and the trace of a code run that ended.
import { describe, expect, it } from 'vitest';
import { agentTool } from '../../../test/fakes/fake-thread-tools';
import type { ContentBlock, Message } from '../../domain/message';
import type { ModelTool } from '../../domain/tool';
import type { TraceEntry } from '../../domain/trace';
import { toParams } from '../anthropic-model';
import { fitHistoryToTools } from '../tool-references';
import { anthropicCodeTraces, pendingContainer, withProgrammaticCalling } from './anthropic-code';

const add = agentTool('add');
const wipe = agentTool('wipe', { isCallableFromCode: false });
const definitions: ModelTool[] = [add, wipe].map((t) => ({
  name: t.modelName,
  description: t.description,
  input_schema: t.definition.inputSchema,
}));
const resolve = (name: string) => [add, wipe].find((t) => t.modelName === name);

describe('the request side', () => {
  it('offers the code execution tool and lets the code call only tools whose "from code" switch is on', () => {
    const tools = withProgrammaticCalling(
      [...definitions, { name: 'tool_search', description: 'Finds tools', input_schema: { type: 'object' } }],
      resolve,
    );
    expect(tools.at(-1)).toEqual({ type: 'code_execution_20260120', name: 'code_execution' });
    expect(tools.find((t) => t.name === 'mcp__srv__add')).toMatchObject({
      allowed_callers: ['direct', 'code_execution_20260120'],
    });
    expect(tools.find((t) => t.name === 'mcp__srv__wipe')).not.toHaveProperty('allowed_callers');
    expect(tools.find((t) => t.name === 'tool_search')).not.toHaveProperty('allowed_callers');
  });

  it('sends the container with the request, and none without one', () => {
    const base = { model: 'claude-sonnet-5', maxTokens: 100, messages: [], tools: [] };
    expect(toParams({ ...base, container: 'container_1' }).container).toBe('container_1');
    expect(toParams(base)).not.toHaveProperty('container');
  });
});

const code: ContentBlock = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'code_execution', input: { code: 'x' } };
const call: ContentBlock = {
  type: 'tool_use',
  id: 'toolu_1',
  name: 'mcp__srv__add',
  input: { a: 1 },
  caller: { type: 'code_execution_20260120', tool_id: 'srvtoolu_1' },
};
const output: ContentBlock = {
  type: 'code_execution_tool_result',
  tool_use_id: 'srvtoolu_1',
  content: { type: 'code_execution_result', stdout: 'sum 2\n', stderr: '', return_code: 0, content: [] },
};
const history = [
  { role: 'user' as const, content: [{ type: 'text' as const, text: 'Add' }] },
  { role: 'assistant' as const, content: [code, call] },
  { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: 'toolu_1', content: [] }] },
  { role: 'assistant' as const, content: [output, { type: 'text' as const, text: 'Two.' }] },
];

describe('the history sent back', () => {
  it('keeps the code blocks as received while the code execution tool is offered', () => {
    const tools = withProgrammaticCalling(definitions, resolve);
    expect(fitHistoryToTools(history, tools)).toEqual(history);
  });

  it('without the tool (the setting changed), the calls read as the model’s and the output as a note', () => {
    const fitted = fitHistoryToTools(history, definitions);
    expect(fitted[1]?.content).toEqual([{ type: 'tool_use', id: 'toolu_1', name: 'mcp__srv__add', input: { a: 1 } }]);
    expect(fitted[3]?.content[0]).toEqual({
      type: 'text',
      text: "[Code that ran in Anthropic's code execution printed:\nsum 2\n]",
    });
  });
});

const message = (blocks: ContentBlock[], trace: TraceEntry[] = []): Message => ({
  id: 'm',
  threadId: 't',
  seq: 1,
  role: 'assistant',
  blocks,
  status: 'complete',
  trace,
  createdAt: 0,
  updatedAt: 0,
});
const modelCall = (container?: string): TraceEntry => ({
  kind: 'model-call',
  model: 'm',
  toolNames: [],
  toolTokens: 0,
  durationMs: 1,
  ...(container ? { container } : {}),
});

describe('the response side', () => {
  it('goes on in the container of an answer whose code waits for results, and only then', () => {
    expect(pendingContainer([message([code, call], [modelCall('container_7')])])).toBe('container_7');
    expect(pendingContainer([message([output], [modelCall('container_7')])])).toBeUndefined();
  });

  it('traces how the code ended: its printed lines, its calls and the tokens their results kept out', () => {
    const inner: TraceEntry = {
      kind: 'tool-call',
      toolUseId: 'toolu_1',
      tool: 'mcp__srv__add',
      arguments: {},
      resultSummary: 'ok',
      isError: false,
      durationMs: 3,
      caller: { kind: 'code', parentToolUseId: 'srvtoolu_1' },
      resultTokens: 900,
    };
    const [trace] = anthropicCodeTraces([output], [inner], () => 1500);
    expect(trace).toMatchObject({
      runner: 'anthropic',
      status: 'returned',
      calls: 1,
      logs: ['sum 2'],
      durationMs: 1500,
      savedTokens: 898,
    });
    const failed: ContentBlock = {
      ...output,
      content: { type: 'code_execution_result', stdout: '', stderr: 'KeyError: x', return_code: 1 },
    };
    expect(anthropicCodeTraces([failed], [], () => 0)[0]).toMatchObject({ status: 'threw', error: 'KeyError: x' });
  });
});
