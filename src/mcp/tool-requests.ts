import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { takeResult } from '@modelcontextprotocol/sdk/shared/responseMessage.js';
import { ListToolsResultSchema, ToolSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { McpProtocolError } from '../domain/mcp-errors';

// The tools/list and tools/call requests as a ServerConnection makes them through the SDK client.

const MAX_LIST_PAGES = 100;
/** How many of a definition's problems its note names. */
const MAX_PROBLEMS_NAMED = 3;

/** A tools/list answer whose tools are checked one by one, so that one invalid definition leaves out only itself. */
const LenientListToolsResult = ListToolsResultSchema.extend({ tools: z.array(z.unknown()) });

/** A server's tools, and a note ("name: left out: why") for each definition that is not a valid tool. */
export interface ListedTools {
  readonly tools: Tool[];
  readonly rejected: string[];
}

/**
 * Lists every tool, following pagination cursors (bounded, in case a server repeats them). Each definition is checked
 * with the SDK's ToolSchema (the SDK's listTools rejects the whole answer for one bad tool); the valid ones fill the
 * SDK's tool cache (output schemas, task support), as its listTools would.
 */
export async function listAllTools(client: Client): Promise<ListedTools> {
  const tools: Tool[] = [];
  const rejected: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const result = await client
      .request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, LenientListToolsResult)
      .catch((error: unknown) => {
        if (!(error instanceof z.ZodError)) throw error;
        throw new McpProtocolError(-1, `The server's tools/list answer is not a list of tools (${problems(error)}).`);
      });
    for (const definition of result.tools) {
      const parsed = ToolSchema.safeParse(definition);
      if (parsed.success) tools.push(parsed.data);
      else
        rejected.push(
          `${nameOf(definition)}: left out: its definition is not a valid MCP tool (${problems(parsed.error)})`,
        );
    }
    if (!result.nextCursor || result.nextCursor === cursor) break;
    cursor = result.nextCursor;
  }
  // Private in the SDK's types, called by its listTools; once for all pages (its listTools keeps only the last page's).
  // Should an SDK version drop it, the tools are still listed (its calls then check no output schema).
  const sdk = client as unknown as { cacheToolMetadata?: (tools: Tool[]) => void };
  if (typeof sdk.cacheToolMetadata === 'function') sdk.cacheToolMetadata(tools);
  return { tools, rejected };
}

const nameOf = (definition: unknown): string => {
  const name = (definition as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name !== '' ? name : '(a tool without a name)';
};

/** A zod error's first problems, each where it is: "inputSchema.properties: Invalid input: expected record, received number". */
function problems(error: z.ZodError): string {
  const named = error.issues.slice(0, MAX_PROBLEMS_NAMED).map((issue) => {
    const where = issue.path.map(String).join('.');
    return where ? `${where}: ${issue.message}` : issue.message;
  });
  const more = error.issues.length - named.length;
  return named.join('; ') + (more > 0 ? `; ${more} more` : '');
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
