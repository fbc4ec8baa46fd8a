import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { takeResult } from '@modelcontextprotocol/sdk/shared/responseMessage.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

// The tools/list and tools/call requests as a ServerConnection makes them through the SDK client.

const MAX_LIST_PAGES = 100;

/** Lists every tool, following pagination cursors (bounded, in case a server repeats them). */
export async function listAllTools(client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...result.tools);
    if (!result.nextCursor || result.nextCursor === cursor) break;
    cursor = result.nextCursor;
  }
  return tools;
}

/** The tools whose definition says `execution.taskSupport: "required"`. */
export function taskRequiredTools(tools: readonly Tool[]): Set<string> {
  return new Set(tools.filter((t) => t.execution?.taskSupport === 'required').map((t) => t.name));
}

/** How long a tool call may take, and who hears of its progress. */
export interface ToolRequestLimits {
  /** Reset by each progress notification. */
  readonly timeoutMs: number;
  /** The longest the call may take, progress or not. */
  readonly maxTotalMs: number;
  readonly signal?: AbortSignal;
  readonly onProgress: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** Calls a tool; one that requires task execution cannot be called plainly, so the SDK's task stream runs it to the end. */
export async function requestToolCall(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  limits: ToolRequestLimits,
  isTaskRequired: boolean,
): Promise<Record<string, unknown>> {
  const requestOptions = {
    timeout: limits.timeoutMs,
    resetTimeoutOnProgress: true,
    maxTotalTimeout: limits.maxTotalMs,
    ...(limits.signal ? { signal: limits.signal } : {}),
    onprogress: limits.onProgress,
  };
  if (isTaskRequired)
    return takeResult(
      client.experimental.tasks.callToolStream({ name, arguments: args }, undefined, { ...requestOptions, task: {} }),
    );
  return client.callTool({ name, arguments: args }, undefined, requestOptions);
}
