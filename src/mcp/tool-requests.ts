import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { takeResult } from '@modelcontextprotocol/sdk/shared/responseMessage.js';
import {
  CallToolResultSchema,
  ListToolsResultSchema,
  ToolSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { McpProtocolError } from '../domain/mcp-errors';
import type { OutputCheck } from './schema-validation';

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

/** How long a tool call may take, and who hears of its progress. */
export interface ToolRequestLimits {
  /** Reset by each progress notification. */
  readonly timeoutMs: number;
  /** The longest the call may take, progress or not. */
  readonly maxTotalMs: number;
  readonly signal?: AbortSignal;
  readonly onProgress: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** How the tool is called, from its listed definition. */
export interface ToolCallShape {
  /** It requires task execution: it cannot be called plainly, so the SDK's task stream runs it to the end. */
  readonly isTaskRequired: boolean;
  /** Its usable output schema's check; none when it declares no schema, or one the app cannot use. */
  readonly outputCheck?: OutputCheck;
}

/** Calls a tool as its shape says; a result that does not meet its output schema comes with a note saying how. */
export async function requestToolCall(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  limits: ToolRequestLimits,
  shape: ToolCallShape,
): Promise<Record<string, unknown>> {
  const requestOptions = {
    timeout: limits.timeoutMs,
    resetTimeoutOnProgress: true,
    maxTotalTimeout: limits.maxTotalMs,
    ...(limits.signal ? { signal: limits.signal } : {}),
    onprogress: limits.onProgress,
  };
  if (shape.isTaskRequired)
    return takeResult(
      client.experimental.tasks.callToolStream({ name, arguments: args }, undefined, { ...requestOptions, task: {} }),
    );
  // Not callTool: it refuses a result whose structured content does not meet the tool's output schema, text and all.
  const result = await client.request(
    { method: 'tools/call', params: { name, arguments: args } },
    CallToolResultSchema,
    requestOptions,
  );
  const note = shape.outputCheck && outputSchemaNote(name, result, shape.outputCheck);
  // First, so that the cap on what the model reads of a long result never cuts it off.
  return note ? { ...result, content: [{ type: 'text', text: note }, ...result.content] } : result;
}

/**
 * What the SDK's callTool would refuse a result for (an output schema the tool declared and did not meet), as a note
 * that goes with the result: the person developing the server sees it, and the model reads the content with a warning
 * rather than losing it. It names every problem, at most as many as an argument error. An error result is not checked
 * (the spec's rule, as the SDK's).
 */
function outputSchemaNote(name: string, result: CallToolResult, check: OutputCheck): string | undefined {
  if (result.isError) return undefined;
  const intro = `[Not as declared: ${name}`;
  const outro = 'The result is given as the tool sent it.]';
  if (result.structuredContent === undefined)
    return `${intro} declares an output schema but returned no structured content. ${outro}`;
  const problems = check(result.structuredContent);
  return problems === undefined
    ? undefined
    : `${intro}'s structured content does not match its output schema: ${problems} ${outro}`;
}
