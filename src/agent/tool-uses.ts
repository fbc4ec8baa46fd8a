import { EXECUTE_CODE_NAME } from '../domain/code-execution';
import type { ContentBlock, Message } from '../domain/message';
import { TOOL_SEARCH_NAME } from '../domain/tool';
import type { TraceEntry } from '../domain/trace';
import { shownResult } from '../domain/tool-display';
import type { ToolProgress } from '../domain/tool-result';
import { runExecuteCode } from './code/execute-code';
import { isProgrammaticUse, runProgrammaticUse } from './code/anthropic-code';
import { DEFAULT_RESULT_CAP, notAnObject, toolCallTrace, toToolResultBlock } from './history';
import { toModelToolResult, withinResultImageCaps } from './tool-result-blocks';
import type { CodeSetup, TurnDeps } from './turn-deps';

type ToolUse = Extract<ContentBlock, { type: 'tool_use' }>;
export type UseResult = {
  readonly block: Extract<ContentBlock, { type: 'tool_result' }>;
  readonly trace: TraceEntry[];
};

/** execute_code: the model's code in a fresh sandbox; each of its tool calls goes through ThreadTools.call as code. */
export function runCodeUse(
  use: ToolUse,
  deps: TurnDeps,
  signal: AbortSignal,
  code: CodeSetup,
  onProgress: (entries: readonly TraceEntry[]) => void,
): Promise<UseResult> {
  const input = use.input;
  const args = typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {};
  return runExecuteCode(
    { id: use.id, input: args as Record<string, unknown> },
    {
      open: code.open,
      limits: code.limits,
      ...(code.personAsked ? { personAsked: code.personAsked } : {}),
      now: deps.now,
      onProgress,
      access: {
        resolve: (name) => deps.tools.resolve(name),
        whyUnavailable: (name) => deps.tools.whyUnavailable(name),
        search: (query) => deps.tools.search(query),
        call: (name, toolArgs, caller, callSignal, toolUseId) =>
          deps.tools.call({
            modelName: name,
            input: toolArgs,
            toolUseId,
            signal: callSignal,
            caller,
          }),
      },
    },
    signal,
  );
}

/** Answers one tool_use of the model through the thread's tools (tool search, or a tool after its approval). */
export async function runToolUse(use: ToolUse, deps: TurnDeps, signal: AbortSignal): Promise<UseResult> {
  if (use.name !== TOOL_SEARCH_NAME) {
    const caller = { kind: 'model' } as const;
    const onProgress = (progress: ToolProgress) => deps.onToolProgress?.(use.id, progress);
    const outcome = await deps.tools.call({
      modelName: use.name,
      input: use.input,
      toolUseId: use.id,
      signal,
      caller,
      onProgress,
    });
    // The model gets what the API accepts within the cap; the person's card keeps every content type (issue #20).
    const capChars = deps.settings.resultCapChars ?? DEFAULT_RESULT_CAP;
    const forModel = toModelToolResult(use.id, outcome.result, capChars);
    return {
      block: forModel.block,
      trace: [
        { ...outcome.trace, shown: shownResult(withinResultImageCaps(outcome.result), capChars), sent: forModel.sent },
      ],
    };
  }
  const input = use.input;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    const result = notAnObject(use.name);
    return { block: toToolResultBlock(use.id, result), trace: [toolCallTrace(use, result)] };
  }
  const outcome = await deps.tools.search(input);
  const content =
    typeof outcome.content === 'string' ? [{ type: 'text' as const, text: outcome.content }] : [...outcome.content];
  return {
    block: { type: 'tool_result', tool_use_id: use.id, content, ...(outcome.isError ? { is_error: true } : {}) },
    trace: [outcome.trace],
  };
}

/** A tool_use the page answers outside execute_code: one the API's code execution made, or the model's own. */
export function runToolOrProgrammaticUse(use: ToolUse, deps: TurnDeps, signal: AbortSignal): Promise<UseResult> {
  return isProgrammaticUse(use)
    ? runProgrammaticUse(use, deps.tools, signal, deps.settings.resultCapChars ?? DEFAULT_RESULT_CAP)
    : runToolUse(use, deps, signal);
}

/**
 * Answers any tool_use of the model: execute_code runs the code in the page (when this turn offers it), every other
 * call goes through the thread's tools. `onProgress` gets the code's calls as they go, and another call's trace as it
 * ends. A turn and a turn resumed after a reload answer calls alike.
 */
export function runAnyUse(
  use: ToolUse,
  deps: TurnDeps,
  signal: AbortSignal,
  onProgress: (entries: readonly TraceEntry[]) => void,
): Promise<UseResult> {
  if (use.name === EXECUTE_CODE_NAME && deps.code && !isProgrammaticUse(use))
    return runCodeUse(use, deps, signal, deps.code, onProgress);
  return runToolOrProgrammaticUse(use, deps, signal).then((result) => {
    onProgress(result.trace);
    return result;
  });
}

/**
 * Shows the calls of `answer` on it while they run: each call's trace (a code's inner calls as they go) replaces what
 * that call showed before. They are stored with the results afterwards.
 */
export function liveTrace(deps: TurnDeps, answer: Message): (useId: string, entries: readonly TraceEntry[]) => void {
  const live = new Map<string, readonly TraceEntry[]>();
  return (useId, entries) => {
    live.set(useId, entries);
    deps.onMessage?.({ ...answer, trace: [...answer.trace, ...[...live.values()].flat()] });
  };
}
