// Anthropic's programmatic tool calling (issue #18 item 3): the API runs the model's code in its code execution
// container, and each tool call the code makes comes back as a `tool_use` block whose `caller` is the code execution
// tool. https://platform.claude.com/docs/en/agents-and-tools/tool-use/programmatic-tool-calling
// - Tools the code may call name the code execution version in `allowed_callers`; the tool itself is offered.
// - The answer names its container; while calls of the code wait for results, the next request must carry it.
// - The user message answering those calls holds tool_result blocks only (no text, not even after them).
// Each call goes through the thread's one tool path (ThreadTools.call) as code, with the same approvals as the
// model's own calls and execute_code's.
import {
  ANTHROPIC_CODE_EXECUTION_NAME,
  ANTHROPIC_CODE_EXECUTION_TYPE,
  type CodeCaller,
} from '../../domain/code-execution';
import type { ContentBlock, Message } from '../../domain/message';
import type { ThreadTools } from '../../domain/thread-tools';
import { TOOL_SEARCH_NAME, type CodeExecutionServerTool, type ModelTool } from '../../domain/tool';
import type { ToolCallResult } from '../../domain/tool-result';
import type { CodeExecutionTrace, TraceEntry } from '../../domain/trace';
import { resultValue } from './execute-code';

type ToolUse = Extract<ContentBlock, { type: 'tool_use' }>;
type ToolResultBlock = Extract<ContentBlock, { type: 'tool_result' }>;
type CodeOutput = Extract<ContentBlock, { type: 'code_execution_tool_result' }>;

const CODE_EXECUTION_TOOL: CodeExecutionServerTool = {
  type: ANTHROPIC_CODE_EXECUTION_TYPE,
  name: ANTHROPIC_CODE_EXECUTION_NAME,
};

/**
 * The request's tools for programmatic calling: every thread tool the code may call (its "from code" switch on) gets
 * `allowed_callers` with the model and the code execution tool, and the code execution tool is added.
 */
export function withProgrammaticCalling(
  definitions: readonly ModelTool[],
  resolve: ThreadTools['resolve'],
): ModelTool[] {
  const tools = definitions.map((tool): ModelTool => {
    if ('type' in tool || tool.name === TOOL_SEARCH_NAME) return tool;
    if (resolve(tool.name)?.isCallableFromCode === false) return tool;
    return { ...tool, allowed_callers: ['direct', ANTHROPIC_CODE_EXECUTION_TYPE] };
  });
  return [...tools, CODE_EXECUTION_TOOL];
}

/** A tool_use block the API's code execution made (its `caller` names the code execution tool). */
export const isProgrammaticUse = (use: ToolUse): boolean => use.caller !== undefined;

/** The container to send on: the latest one an answer of these messages named, while its code still waits. */
export function pendingContainer(history: readonly Message[]): string | undefined {
  const last = history.findLast((m) => m.role === 'assistant' && m.status === 'complete');
  if (!last?.blocks.some((b) => b.type === 'tool_use' && b.caller)) return undefined;
  for (const entry of [...last.trace].reverse())
    if (entry.kind === 'model-call' && entry.container) return entry.container;
  return undefined;
}

/** The text of a result as the code receives it: structured content as JSON, else its text lines. */
function resultText(result: ToolCallResult): string {
  const value = resultValue(result);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === '' ? (result.isError ? 'The tool failed.' : '(no text)') : text;
}

/** Runs one call the code made, through the thread's tool path as code; the result block holds text only. */
export async function runProgrammaticUse(
  use: ToolUse,
  tools: Pick<ThreadTools, 'call' | 'resolve'>,
  signal: AbortSignal,
  capChars: number,
): Promise<{ readonly block: ToolResultBlock; readonly trace: TraceEntry[] }> {
  const caller: CodeCaller = { kind: 'code', parentToolUseId: use.caller?.tool_id ?? use.id };
  const answer = (text: string, isError: boolean): ToolResultBlock => ({
    type: 'tool_result',
    tool_use_id: use.id,
    content: [
      {
        type: 'text',
        text: text.length > capChars ? `${text.slice(0, capChars)}\n[cut at ${capChars} characters]` : text,
      },
    ],
    ...(isError ? { is_error: true } : {}),
  });
  if (tools.resolve(use.name)?.isCallableFromCode === false) {
    const text = `${use.name} may not be called from code (its "from code" setting is off); it was not called.`;
    return { block: answer(text, true), trace: [] };
  }
  const outcome = await tools.call({ modelName: use.name, input: use.input, toolUseId: use.id, signal, caller });
  const text =
    outcome.status === 'denied'
      ? `Denied: the person declined to run ${outcome.tool?.toolName ?? use.name}; it was not called.`
      : resultText(outcome.result);
  const resultTokens = Math.ceil(resultText(outcome.result).length / 4);
  return {
    block: answer(text, outcome.status === 'denied' || outcome.result.isError),
    trace: [{ ...outcome.trace, caller, resultTokens }],
  };
}

/**
 * The code-execution trace of each code run that ended in these blocks: how it ended, what it printed, how many
 * calls it made and the tokens their results kept out of the context (`earlier`: the thread's traces so far).
 */
export function anthropicCodeTraces(
  blocks: readonly ContentBlock[],
  earlier: readonly TraceEntry[],
  durationMs: (toolUseId: string) => number,
): CodeExecutionTrace[] {
  return blocks
    .filter((b): b is CodeOutput => b.type === 'code_execution_tool_result')
    .map((output) => {
      const inner = earlier.filter(
        (t) => t.kind === 'tool-call' && t.caller?.parentToolUseId === output.tool_use_id,
      ) as Extract<TraceEntry, { kind: 'tool-call' }>[];
      const { stdout = '', stderr = '', return_code: code, error_code: errorCode } = output.content;
      const isError = errorCode !== undefined || (code !== undefined && code !== 0);
      const saved = inner.reduce((sum, t) => sum + (t.resultTokens ?? 0), 0) - Math.ceil(stdout.length / 4);
      const error = errorCode ? `The code execution failed: ${errorCode}` : stderr || `Exit code ${code ?? '?'}`;
      return {
        kind: 'code-execution',
        runner: 'anthropic',
        toolUseId: output.tool_use_id,
        status: isError ? 'threw' : 'returned',
        durationMs: durationMs(output.tool_use_id),
        calls: inner.length,
        savedTokens: Math.max(0, saved),
        logs: stdout === '' ? [] : stdout.replace(/\n$/, '').split('\n'),
        ...(isError ? { error } : {}),
      };
    });
}
