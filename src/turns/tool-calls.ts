import { assertNever } from '../domain/errors';
import {
  approvalFor,
  decideApproval,
  definitionText,
  holds,
  legacyDefinitionText,
  toolKey,
  type StoredApprovals,
} from '../agent/approval-policy';
import { definitionChange } from '../agent/definition-change';
import { notAnObject, toolCallTrace } from '../agent/history';
import { logFailure, type Logger } from '../domain/logger';
import type { StoredApproval } from '../domain/server-trust';
import type { AskApproval, ToolCaller, ToolCallOutcome, ToolCallRequest, ToolCallStatus } from '../domain/thread-tools';
import type { EffectiveTool } from '../domain/tool';
import { failedResult, type ToolCallFailureKind, type ToolCallResult, type ToolProgress } from '../domain/tool-result';
import type { ToolCallTrace } from '../domain/trace';
import { TOOL_SEARCH_NAME } from '../domain/tool';
import { appResourceUri, isAppOnlyTool, isModelOnlyTool } from '../mcp/app-resource';

/** Where approvals the person gives are kept beyond this turn. */
export interface ApprovalMemory {
  allowForThread(key: string, approval: StoredApproval): Promise<void>;
  allowAlways(key: string, approval: StoredApproval): Promise<void>;
}

export interface ToolCallsDeps {
  /** The thread's tool by the model's name for it, as it is now (enabled servers, tools not disabled). */
  readonly resolve: (modelName: string) => EffectiveTool | undefined;
  /** Why `resolve` finds no tool by this name (no such tool, its server off in the thread, the tool switched off). */
  readonly whyUnavailable: (modelName: string) => string;
  /** Lists again the tools of the thread's server a name not found seems to be of (its list may have changed). */
  readonly relistServerOf?: (modelName: string, signal: AbortSignal) => Promise<void>;
  /** Why the tool may not be called right now (its server switched off in the thread, moved), or undefined. */
  readonly refusal: (tool: EffectiveTool) => string | undefined;
  /** Calls the tool on its server. Never throws. */
  readonly invoke: (
    tool: EffectiveTool,
    args: Record<string, unknown>,
    signal: AbortSignal,
    onProgress?: (progress: ToolProgress) => void,
    caller?: ToolCaller,
  ) => Promise<ToolCallResult>;
  /** Why the tool's schema refuses these arguments (checked before the person is asked), or undefined. */
  readonly checkArguments: (tool: EffectiveTool, args: Record<string, unknown>) => Promise<string | undefined>;
  /** Remembers a tool as used in this thread (best-effort). */
  readonly markUsed: (tool: EffectiveTool) => Promise<void>;
  readonly askApproval: AskApproval;
  /** The approvals stored when the turn began; ones given during the turn are added for its later calls. */
  readonly approvals: StoredApprovals;
  readonly memory: ApprovalMemory;
  readonly hash: (text: string) => Promise<string>;
  readonly logger: Logger;
  /** Told of every call's trace, whoever the caller. */
  readonly onTrace?: (trace: ToolCallTrace, caller: ToolCaller) => void;
}

/** The calls of one turn: what the model was offered, what it found, and the one path every call takes. */
export interface ToolCalls {
  call(request: ToolCallRequest): Promise<ToolCallOutcome>;
  /** The tools of the model call about to be made: the model may call these and those found earlier in the turn. */
  offer(tools: readonly EffectiveTool[]): void;
  /** Tools tool_search found: offered from the turn's next model call on. */
  found(tools: readonly EffectiveTool[]): void;
}

const MODEL: ToolCaller = { kind: 'model' };
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Resolves, permits, asks approval, calls and traces; every caller's call goes through here. Never throws. */
export function createToolCalls(deps: ToolCallsDeps): ToolCalls {
  const approvals = { always: { ...deps.approvals.always }, thread: { ...deps.approvals.thread } };
  const found = new Map<string, EffectiveTool>();
  let offered = new Set<string>();

  /** The tool a caller may reach by this name, or the reason it may not (the text the caller gets back). */
  function reach(modelName: string, caller: ToolCaller): EffectiveTool | string {
    const tool = deps.resolve(modelName);
    if (!tool) return `${deps.whyUnavailable(modelName)}. It was not called.`;
    switch (caller.kind) {
      case 'model':
        return offered.has(modelName)
          ? tool
          : `The tool ${modelName} is not loaded in this thread; find it with ${TOOL_SEARCH_NAME} first. It was not called.`;
      case 'code':
        // A tool meant only for its server's app (MCP Apps visibility) is not the model's, nor its code's.
        return isAppOnlyTool(tool.definition)
          ? `The tool ${modelName} is only for its server's app; it was not called.`
          : tool;
      case 'app':
        if (tool.serverId !== caller.serverId)
          return `An app may call only the tools of its own server; ${modelName} was not called.`;
        return isModelOnlyTool(tool.definition)
          ? `The tool ${modelName} is only for the model, not for apps; it was not called.`
          : tool;
      default:
        return assertNever(caller);
    }
  }

  /** How the tool changed since an approval of it that no longer holds, for the card. */
  const changeOf = (tool: EffectiveTool, hash: string) => {
    const change = definitionChange(tool, hash, approvals);
    return change ? { definitionChange: change } : {};
  };

  /** An approval stored before the hash covered apps and annotations, and holding by the older one, stored again. */
  async function restamp(tool: EffectiveTool, hash: string, legacyHash: string | undefined) {
    const key = toolKey(tool);
    const context = { tool: tool.modelName };
    for (const scope of ['always', 'thread'] as const) {
      const stored = approvals[scope][key];
      if (!holds(stored, tool, hash, legacyHash) || stored?.covers !== undefined) continue;
      approvals[scope][key] = approvalFor(tool, hash);
      const saved =
        scope === 'always'
          ? deps.memory.allowAlways(key, approvalFor(tool, hash))
          : deps.memory.allowForThread(key, approvalFor(tool, hash));
      await saved.catch(logFailure(deps.logger, 'Updating an approval failed', context));
    }
  }

  async function approve(tool: EffectiveTool, args: Record<string, unknown>, request: ToolCallRequest) {
    const text = definitionText(tool);
    const hash = await deps.hash(text);
    const legacyText = legacyDefinitionText(tool);
    const legacyHash = legacyText === undefined || legacyText === text ? undefined : await deps.hash(legacyText);
    const policy = decideApproval(tool, hash, approvals, legacyHash);
    if (policy.decision === 'allow') {
      if (policy.by === 'rule') await restamp(tool, hash, legacyHash);
      return { decision: 'auto-allow', by: policy.by } as const;
    }
    const caller = request.caller ?? MODEL;
    const decision = await deps
      .askApproval(
        { tool, arguments: args, toolUseId: request.toolUseId, caller, ...changeOf(tool, hash) },
        request.signal,
      )
      .catch(logFailure(deps.logger, 'Asking for approval failed; the call is denied', { tool: tool.modelName }));
    const key = toolKey(tool);
    const context = { tool: tool.modelName };
    // Remembering is best-effort: a failed write must not lose the call's result.
    if (decision === 'allow-thread') {
      approvals.thread[key] = approvalFor(tool, hash);
      await deps.memory
        .allowForThread(key, approvalFor(tool, hash))
        .catch(logFailure(deps.logger, 'Saving "allow for this thread" failed', context));
    }
    if (decision === 'allow-always') {
      approvals.always[key] = approvalFor(tool, hash);
      await deps.memory
        .allowAlways(key, approvalFor(tool, hash))
        .catch(logFailure(deps.logger, 'Saving "always allow" failed', context));
    }
    return { decision: decision ?? 'deny', by: 'person' } as const;
  }

  async function call(request: ToolCallRequest): Promise<ToolCallOutcome> {
    const caller = request.caller ?? MODEL;
    const use = { id: request.toolUseId, name: request.modelName, input: request.input };
    const end = (
      status: ToolCallStatus,
      result: ToolCallResult,
      extra: Partial<ToolCallTrace>,
      tool?: EffectiveTool,
    ) => {
      const trace = toolCallTrace(use, result, extra);
      deps.onTrace?.(trace, caller);
      return { status, result, trace, ...(tool ? { tool } : {}) };
    };
    const refuse = (message: string, kind: ToolCallFailureKind = 'invalid-arguments') =>
      end('refused', failedResult({ kind, message }, 0), {});
    if (!isObject(request.input)) return end('refused', notAnObject(request.modelName), {});
    const args = request.input;
    const tool = reach(request.modelName, caller);
    if (typeof tool === 'string') {
      // A name of the thread's server that it does not list: read its list again, so that a search finds it as it is.
      if (!deps.resolve(request.modelName)) await deps.relistServerOf?.(request.modelName, request.signal);
      return refuse(tool);
    }
    // A call its server would refuse is not put to the person: the caller gets the reason and can correct it.
    const problem = await deps.checkArguments(tool, args);
    if (problem !== undefined)
      return end(
        'refused',
        failedResult({ kind: 'invalid-arguments', message: problem }, 0),
        { serverId: tool.serverId, toolName: tool.toolName },
        tool,
      );

    const approval = await approve(tool, args, request);
    // The app the tool declares now, kept with the call: its result shows that app, whatever the tool declares later.
    const appUri = appResourceUri(tool.definition);
    const traced = { serverId: tool.serverId, toolName: tool.toolName, approval, ...(appUri ? { appUri } : {}) };
    if (approval.decision === 'deny') {
      const message = `The person declined to run ${tool.toolName}.`;
      return end('denied', failedResult({ kind: 'tool-disabled', message }, 0), traced, tool);
    }
    // Checked again after the wait for the person: the thread or the server may have changed meanwhile.
    const refusal = deps.refusal(tool);
    const result =
      refusal === undefined
        ? await deps.invoke(tool, args, request.signal, request.onProgress, caller)
        : failedResult({ kind: 'server-unavailable', message: refusal }, 0);
    await deps.markUsed(tool);
    const status: ToolCallStatus = refusal !== undefined ? 'refused' : result.failure ? 'failed' : 'done';
    return end(status, result, traced, tool);
  }

  return {
    call,
    offer(tools) {
      offered = new Set([...tools.map((t) => t.modelName), ...found.keys()]);
    },
    found(tools) {
      for (const tool of tools) if (!found.has(tool.modelName)) found.set(tool.modelName, tool);
    },
  };
}
