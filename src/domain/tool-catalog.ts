import { z } from 'zod';
import { ServerId } from './server-config';
import { ProfileId } from './user-config';

/** A tool definition as an MCP server lists it; unknown fields are kept for forward compatibility. */
export const ToolDefinition = z.looseObject({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.looseObject({ type: z.literal('object') }),
  outputSchema: z.looseObject({}).optional(),
  annotations: z.looseObject({}).optional(),
});
export type ToolDefinition = z.infer<typeof ToolDefinition>;

/** A server's last known tool list, kept so search works while the server is offline. */
export const ToolCatalog = z.object({
  profileId: ProfileId,
  serverId: ServerId,
  tools: z.array(ToolDefinition),
  /** Hash over the tool definitions, to tell when they changed. */
  hash: z.string().min(1),
  fetchedAt: z.number().int().nonnegative(),
  /** What the size caps cut from the server's list, one line per tool ("name: description cut …"). */
  cuts: z.array(z.string()).optional(),
  /** The `instructions` of the server's initialize result, within MAX_INSTRUCTIONS_CHARS. */
  instructions: z.string().optional(),
});
export type ToolCatalog = z.infer<typeof ToolCatalog>;

/** A tool as addressed inside the app: which server, which tool. */
export interface ToolRef {
  readonly serverId: string;
  readonly toolName: string;
}

/** The transient, per-model-call selection of tools (never stored). */
export interface CallToolSelection {
  readonly pinned: readonly ToolRef[];
  readonly loaded: readonly ToolRef[];
  readonly searched: readonly ToolRef[];
  /** Whether everything was sent because the thread's tools are few (auto mode below its threshold). */
  readonly isDeferred: boolean;
}
