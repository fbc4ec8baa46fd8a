import { EXECUTE_CODE_NAME, type CodeCaller, type CodeLimits, type SandboxError } from '../../domain/code-execution';
import type { ContentBlock } from '../../domain/message';
import type { ToolCallOutcome, ToolSearchOutcome } from '../../domain/thread-tools';
import type { EffectiveTool, ModelTool } from '../../domain/tool';
import type { ToolCallResult } from '../../domain/tool-result';
import type { CodeExecutionTrace, ToolCallTrace, TraceEntry } from '../../domain/trace';
import type { OpenSandbox, PersonAsked } from './sandbox-port';
import { runCode, type CodeRunOutcome, type InnerAnswer } from './sandbox-session';

/** The thread's one tool path (ThreadTools) as code sees it: the same tools, refusals and approvals as the model's. */
export interface CodeToolAccess {
  /** The thread's tool by its model-facing name (enabled servers, deferred tools too), or undefined. */
  resolve(modelName: string): EffectiveTool | undefined;
  /** Why there is no tool by this name (ThreadTools.whyUnavailable). */
  whyUnavailable(modelName: string): string;
  /**
   * ThreadTools.call with the code as caller: permission, approval and trace applied once. Never throws. `toolUseId`
   * names the call (its approval and trace), the same id the card shows while it runs.
   */
  call(
    modelName: string,
    args: Record<string, unknown>,
    caller: CodeCaller,
    signal: AbortSignal,
    toolUseId: string,
  ): Promise<ToolCallOutcome>;
  /** Answers `tools.tool_search({ query })` within the thread's scope. */
  search(input: unknown): Promise<ToolSearchOutcome>;
}

export interface ExecuteCodeDeps {
  readonly open: OpenSandbox;
  readonly access: CodeToolAccess;
  readonly limits: CodeLimits;
  readonly now: () => number;
  /** Called as inner calls finish, so the person sees them while the code runs. */
  readonly onProgress?: (trace: readonly TraceEntry[]) => void;
  /** While the person is asked something, the time limit stands still. */
  readonly personAsked?: PersonAsked;
}

type ToolResultBlock = Extract<ContentBlock, { type: 'tool_result' }>;

/** The execute_code tool as the model sees it. */
export function executeCodeDefinition(limits: CodeLimits): ModelTool {
  return {
    name: EXECUTE_CODE_NAME,
    description: [
      'Runs JavaScript as the body of an async function, in a sandbox with no network, page or storage: `await` works at the top level and `return` gives the result.',
      "Call this thread's tools as `await tools[name](args)` with the same names as your tools (deferred ones too), e.g. `await tools['mcp__server__tool']({ key: 'value' })`; `await tools.tool_search({ query })` finds tools and returns [{ name, description, input_schema }].",
      "A call resolves with the tool's structuredContent when it has one, else its text joined with newlines (parse JSON text yourself); a tool error rejects with an Error whose message is the tool's text. Calls may wait for the person's approval.",
      `Only the returned value (as JSON) and console.log lines come back to you, up to ${limits.outputChars} characters; tool results do not, so filter, combine and summarize them in the code.`,
      `Limits: ${Math.round(limits.timeoutMs / 1000)} s, ${limits.maxCalls} tool calls.`,
    ].join(' '),
    input_schema: {
      type: 'object',
      properties: { code: { type: 'string', description: 'JavaScript: the body of an async function.' } },
      required: ['code'],
    },
  };
}

/** The text of a tool result as code receives it: structuredContent when present, else its text lines. */
export function resultValue(result: ToolCallResult): unknown {
  if (result.structuredContent) return result.structuredContent;
  return result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
}

function resultText(result: ToolCallResult): string {
  return result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n') || 'The tool failed.';
}

/** Estimated tokens of a result had it gone to the model (4 characters a token, as the trace estimates elsewhere). */
function estimateTokens(result: ToolCallResult): number {
  const text = result.content.map((c) => (c.type === 'text' ? c.text : JSON.stringify(c))).join('\n');
  const structured = result.structuredContent ? JSON.stringify(result.structuredContent).length : 0;
  return Math.ceil((text.length + structured) / 4);
}

/** Runs one execute_code call: the code in a fresh sandbox, its tool calls through the thread's tool path. */
export async function runExecuteCode(
  use: { readonly id: string; readonly input: Record<string, unknown> },
  deps: ExecuteCodeDeps,
  signal: AbortSignal,
): Promise<{ readonly block: ToolResultBlock; readonly trace: TraceEntry[] }> {
  const started = deps.now();
  const inner: ToolCallTrace[] = [];
  // Inner calls and tool searches in the order they happened, for the trace (a search is traced like the model's).
  const events: TraceEntry[] = [];
  const caller: CodeCaller = { kind: 'code', parentToolUseId: use.id };
  // Calls made and not answered yet: shown as running while the code runs, as cancelled if it ends first.
  const running = new Map<number, { readonly trace: ToolCallTrace; readonly started: number }>();
  let isEnded = false;
  let callCount = 0;
  const progress = () => deps.onProgress?.([...events, ...[...running.values()].map((call) => call.trace)]);
  const code = use.input.code;
  if (typeof code !== 'string' || code.trim() === '') {
    const error = `${EXECUTE_CODE_NAME} needs { "code": string } with the JavaScript to run; nothing was run.`;
    return {
      block: { type: 'tool_result', tool_use_id: use.id, content: [{ type: 'text', text: error }], is_error: true },
      trace: [codeTrace(use.id, 'refused', deps.now() - started, 0, 0, [], undefined, error)],
    };
  }
  const call = async (name: string, args: unknown, callSignal: AbortSignal): Promise<InnerAnswer> => {
    if (name === 'tool_search') {
      const found = await deps.access.search(args);
      events.push({ ...found.trace, caller });
      progress();
      if (found.isError)
        return { ok: false, error: typeof found.content === 'string' ? found.content : 'The tool search failed.' };
      return {
        ok: true,
        value: found.hits.map((h) => ({
          name: h.tool.modelName,
          description: h.tool.description,
          input_schema: h.tool.definition.inputSchema,
        })),
      };
    }
    const tool = deps.access.resolve(name);
    if (!tool)
      return {
        ok: false,
        error: `${deps.access.whyUnavailable(name)}; it was not called. Find names with tools.tool_search({ query }).`,
      };
    if (tool.isCallableFromCode === false)
      return {
        ok: false,
        error: `${name} may not be called from code (its "from code" setting is off); it was not called. Call it directly instead.`,
      };
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      return { ok: false, error: `The arguments for ${name} must be an object; the tool was not called.` };
    const callId = ++callCount;
    // The code's calls are `${id}:${n}`: an approval asked for one names the call shown running.
    const toolUseId = `${use.id}:${callId}`;
    running.set(callId, {
      started: deps.now(),
      trace: {
        kind: 'tool-call',
        toolUseId,
        serverId: tool.serverId,
        tool: name,
        toolName: tool.toolName,
        arguments: args,
        resultSummary: '',
        isError: false,
        durationMs: 0,
        caller,
        isRunning: true,
      },
    });
    progress();
    const { status, result, trace } = await deps.access
      .call(name, args as Record<string, unknown>, caller, callSignal, toolUseId)
      .finally(() => running.delete(callId));
    // Answered after the code ended: it is already listed as cancelled, and the card shows the stored result.
    if (isEnded) return { ok: false, error: 'The code ended before the call answered.' };
    const traced: ToolCallTrace = { ...trace, caller, resultTokens: estimateTokens(result) };
    inner.push(traced);
    events.push(traced);
    progress();
    if (status === 'denied')
      return { ok: false, error: `Denied: the person declined to run ${tool.toolName}; it was not called.` };
    return result.isError ? { ok: false, error: resultText(result) } : { ok: true, value: resultValue(result) };
  };
  const asked = deps.personAsked;
  const outcome = await runCode(
    deps.open,
    {
      code,
      limits: deps.limits,
      call,
      ...(asked
        ? {
            personAsked: {
              isAsked: (isCalling) => asked.isAsked(`${use.id}:`, isCalling),
              subscribe: (listener) => asked.subscribe(listener),
            },
          }
        : {}),
    },
    signal,
  );
  // A call still out when the code ended was cancelled with it: listed so, not left out of the card and the trace.
  isEnded = true;
  const ended = deps.now();
  for (const { trace, started } of running.values()) {
    const { isRunning: _running, ...rest } = trace;
    const cancelled: ToolCallTrace = {
      ...rest,
      isError: true,
      durationMs: Math.max(0, ended - started),
      error: signal.aborted
        ? 'Stopped with the code before it answered.'
        : 'Cancelled: the code ended before it answered.',
      ...(signal.aborted ? { isStopped: true as const } : {}),
    };
    inner.push(cancelled);
    events.push(cancelled);
  }
  running.clear();
  const { text, value } = report(outcome, deps.limits);
  const isError = outcome.status !== 'returned';
  const saved = inner.reduce((sum, t) => sum + (t.resultTokens ?? 0), 0);
  return {
    block: {
      type: 'tool_result',
      tool_use_id: use.id,
      content: [{ type: 'text', text }],
      ...(isError ? { is_error: true } : {}),
    },
    trace: [
      ...events,
      codeTrace(
        use.id,
        outcome.status,
        deps.now() - started,
        outcome.calls,
        Math.max(0, saved - Math.ceil(text.length / 4)),
        capLogs(outcome.logs, deps.limits.outputChars),
        value,
        isError ? describe(outcome, deps.limits) : undefined,
      ),
    ],
  };
}

function codeTrace(
  toolUseId: string,
  status: CodeExecutionTrace['status'],
  durationMs: number,
  calls: number,
  savedTokens: number,
  logs: string[],
  value: string | undefined,
  error: string | undefined,
): CodeExecutionTrace {
  return {
    kind: 'code-execution',
    toolUseId,
    status,
    durationMs,
    calls,
    savedTokens,
    logs,
    ...(value !== undefined ? { value } : {}),
    ...(error !== undefined ? { error } : {}),
  };
}

function capLogs(logs: readonly string[], chars: number): string[] {
  const kept: string[] = [];
  let left = chars;
  for (const line of logs) {
    if (left <= 0) break;
    kept.push(line.slice(0, left));
    left -= line.length + 1;
  }
  return kept;
}

function errorText(error: SandboxError | undefined): string {
  if (!error) return 'The code failed.';
  return `${error.name}${error.line ? ` at line ${error.line}` : ''}: ${error.message}`;
}

/** Why the code did not return, in words for the model and the person. */
function describe(outcome: CodeRunOutcome, limits: CodeLimits): string {
  switch (outcome.status) {
    case 'returned':
      return '';
    case 'threw':
    case 'crashed':
      return errorText(outcome.error);
    case 'timeout':
      return `The code was ended after ${Math.round(limits.timeoutMs / 1000)} s, the time limit for ${EXECUTE_CODE_NAME}; tool calls still running were cancelled.`;
    case 'stopped':
      return 'The person stopped the code; tool calls still running were cancelled.';
  }
}

/** What goes back to the model: the returned value and the logged lines only, capped at the output limit. */
function report(outcome: CodeRunOutcome, limits: CodeLimits): { text: string; value?: string } {
  const parts: string[] = [];
  if (outcome.status === 'returned')
    parts.push(outcome.value === undefined ? 'The code returned nothing.' : `Returned value (JSON):\n${outcome.value}`);
  else parts.push(describe(outcome, limits));
  if (outcome.isCallLimitHit)
    parts.push(`Calls past the limit of ${limits.maxCalls} tool calls were refused (they rejected inside the code).`);
  if (outcome.logs.length > 0) parts.push(`Logged lines:\n${outcome.logs.join('\n')}`);
  let text = parts.join('\n\n');
  const isCapped = text.length > limits.outputChars || outcome.isLogCapped;
  if (text.length > limits.outputChars) text = text.slice(0, limits.outputChars);
  if (isCapped)
    text += `\n[Output cut at ${limits.outputChars} characters, the limit for ${EXECUTE_CODE_NAME}; return less, e.g. a summary.]`;
  const value = outcome.value === undefined ? undefined : outcome.value.slice(0, limits.outputChars);
  return { text, ...(value !== undefined ? { value } : {}) };
}
