import { NotFoundError } from '../domain/errors';
import type { AskApproval, ToolCallOutcome } from '../domain/thread-tools';
import { threadToolsOf } from './prepare-turn';
import type { TurnRunnerDeps } from './turn-runner';

/** One tool call an MCP App asks for, from the card of a thread's tool result. */
export interface AppToolCallRequest {
  readonly threadId: string;
  /** The server whose app asks: an app may call only its own server's tools. */
  readonly serverId: string;
  readonly toolName: string;
  readonly args: Record<string, unknown>;
  readonly askApproval: AskApproval;
  readonly signal: AbortSignal;
  /** The thread's enabled servers as they are now. */
  readonly enabledServerIds: () => readonly string[];
  /** An id for the call's approval card and trace. */
  readonly callId: string;
}

/**
 * Calls a tool for an app (issue #21) through the thread's one tool path, with caller "app": the thread's enabled
 * servers, disabled tools, the server-trust check and the same approval policy as the model's calls. Never throws
 * for a refused or failed call (its outcome says so); throws NotFoundError when the thread is gone.
 */
export async function callToolForApp(deps: TurnRunnerDeps, request: AppToolCallRequest): Promise<ToolCallOutcome> {
  const [thread, profile] = await Promise.all([
    deps.storage.threads.get(request.threadId),
    deps.storage.profiles.get(deps.profileId),
  ]);
  if (!thread) throw new NotFoundError('thread', request.threadId);
  if (!profile) throw new NotFoundError('profile', deps.profileId);
  const tools = threadToolsOf(deps, thread, profile, request.enabledServerIds, { askApproval: request.askApproval });
  const tool = deps.registry.tools([request.serverId]).find((t) => t.toolName === request.toolName);
  return tools.call({
    // A tool the server does not list (or has switched off) is refused by the path itself, with its reason.
    modelName: tool?.modelName ?? `mcp__${request.serverId}__${request.toolName}`,
    input: request.args,
    toolUseId: request.callId,
    signal: request.signal,
    caller: { kind: 'app', serverId: request.serverId },
  });
}
