import { z } from 'zod';
import { ShownResult } from './tool-display';

export const Usage = z.object({
  input: z.number().int().nonnegative(),
  output: z.number().int().nonnegative(),
  cacheRead: z.number().int().nonnegative().default(0),
  cacheWrite: z.number().int().nonnegative().default(0),
});
export type Usage = z.infer<typeof Usage>;

/** One limit's count as the check before a model call saw it, and the limit. */
export const LimitCount = z.object({ used: z.number().nonnegative(), max: z.number().nonnegative() });

/** The counts of the limits that are set, as checked just before a model call (a limit not set is absent). */
export const LimitCounts = z.object({
  callsThisHour: LimitCount.optional(),
  tokensToday: LimitCount.optional(),
  /** Dollars this thread had spent, and its cap. */
  threadSpendUsd: LimitCount.optional(),
});
export type LimitCounts = z.infer<typeof LimitCounts>;

/** One model call of a turn. */
export const ModelCallTrace = z.object({
  kind: z.literal('model-call'),
  model: z.string(),
  toolNames: z.array(z.string()),
  /** Estimated tokens of the tool definitions sent. */
  toolTokens: z.number().int().nonnegative(),
  usage: Usage.optional(),
  durationMs: z.number().nonnegative(),
  stopReason: z.string().optional(),
  error: z.string().optional(),
  /** What the call cost in dollars at the price table of the time. */
  costUsd: z.number().nonnegative().optional(),
  /** Why the call has no cost (a model missing from the price table): only its tokens are shown. */
  unpricedReason: z.string().optional(),
  /** The API's 400 named a part of the request (a tool, a block): shown beside its message. */
  offendingPart: z.string().optional(),
  /** A call a server asked for (MCP sampling) and the person approved: which server. */
  sampledFor: z.object({ serverId: z.string(), serverName: z.string() }).optional(),
  /** A call the app made for itself, not for the turn: `summary` asked the model to summarize older messages. */
  purpose: z.literal('summary').optional(),
  /** Programmatic tool calling: the code execution container the answer used (sent with the turn's next call). */
  container: z.string().optional(),
  /** The person's limits and the counts the check saw just before this call; absent when no limit is set. */
  limits: LimitCounts.optional(),
});

export const Approval = z.enum(['allow-once', 'allow-thread', 'allow-always', 'deny']);
export type Approval = z.infer<typeof Approval>;

/** What of a tool result the model received: text within the cap, images, and what was left out and why. */
export const SentToModel = z.object({
  textChars: z.number().int().nonnegative(),
  capChars: z.number().int().nonnegative(),
  images: z.number().int().nonnegative(),
  imageBytes: z.number().int().nonnegative(),
  isTruncated: z.boolean(),
  /** Characters of text the result had before the cut (set when it was cut). */
  fullChars: z.number().int().nonnegative().optional(),
  leftOut: z.array(z.string()),
});
export type SentToModel = z.infer<typeof SentToModel>;

/** One tool call of a turn. */
export const ToolCallTrace = z.object({
  kind: z.literal('tool-call'),
  toolUseId: z.string(),
  serverId: z.string().optional(),
  /** The name the caller used (for the model, the server-prefixed API name). */
  tool: z.string(),
  /** The tool's own name on its server, when known (a name the API could not take as it is reads differently). */
  toolName: z.string().optional(),
  arguments: z.unknown(),
  /** How the call was allowed (or refused), and who decided: the person, a stored rule, the tool's annotations. */
  approval: z
    .object({
      decision: z.union([Approval, z.literal('auto-allow')]),
      by: z.enum(['person', 'rule', 'annotation', 'policy']),
    })
    .optional(),
  resultSummary: z.string(),
  /** The result as the person sees it (every content type, structured content), bounded; see tool-display.ts. */
  shown: ShownResult.optional(),
  /** The MCP App (`ui://…`) the tool declared when it ran: the result shows that app, and none when absent. */
  appUri: z.string().optional(),
  /** What of the result went to the model, within which cap. */
  sent: SentToModel.optional(),
  isError: z.boolean(),
  durationMs: z.number().nonnegative(),
  error: z.string().optional(),
  /** Set when the person stopped the turn while the call ran: the call was cancelled, it did not fail. */
  isStopped: z.literal(true).optional(),
  /** Set only on the live trace of a code's call that has not answered yet (never stored: its end replaces it). */
  isRunning: z.literal(true).optional(),
  /** Set when code the model wrote made the call (execute_code); absent for the model's own calls. */
  caller: z.object({ kind: z.literal('code'), parentToolUseId: z.string() }).optional(),
  /** Estimated tokens of the result (what the model would have read had it made the call itself). */
  resultTokens: z.number().int().nonnegative().optional(),
});

/** One tool search of a turn. */
export const ToolSearchTrace = z.object({
  kind: z.literal('tool-search'),
  query: z.string(),
  strategy: z.string(),
  picks: z.array(z.object({ name: z.string(), score: z.number() })),
  /** Set when code the model wrote searched (`tools.tool_search` in execute_code); absent for the model's own. */
  caller: z.object({ kind: z.literal('code'), parentToolUseId: z.string() }).optional(),
});

/** The model's context was made smaller before a call: tokens before and after, and how. */
export const CompactionTrace = z.object({
  kind: z.literal('compaction'),
  /** server: the API's compaction; client: a summary made by a model call; cleared: old tool results left out. */
  method: z.enum(['server', 'client', 'cleared']),
  tokensBefore: z.number().int().nonnegative(),
  tokensAfter: z.number().int().nonnegative(),
  /** Why this method was used when another was tried first (an endpoint refusing the beta). */
  note: z.string().optional(),
});

/** One execute_code call of a turn: how it ended, what it logged and returned, and its inner calls' savings. */
export const CodeExecutionTrace = z.object({
  kind: z.literal('code-execution'),
  toolUseId: z.string(),
  status: z.enum(['returned', 'threw', 'timeout', 'stopped', 'crashed', 'refused']),
  durationMs: z.number().nonnegative(),
  /** Tool calls the code asked for. */
  calls: z.number().int().nonnegative(),
  /** Estimated tokens of inner results that stayed out of the model's context. */
  savedTokens: z.number().int().nonnegative(),
  logs: z.array(z.string()),
  /** The returned value as JSON text (as sent to the model, capped). */
  value: z.string().optional(),
  error: z.string().optional(),
  /** Where the code ran: this page's sandbox (execute_code, JavaScript) or Anthropic's container (Python). */
  runner: z.enum(['local', 'anthropic']).optional(),
});

export const TraceEntry = z.discriminatedUnion('kind', [
  ModelCallTrace,
  ToolCallTrace,
  ToolSearchTrace,
  CompactionTrace,
  CodeExecutionTrace,
]);
export type TraceEntry = z.infer<typeof TraceEntry>;
export type ModelCallTrace = z.infer<typeof ModelCallTrace>;
export type ToolCallTrace = z.infer<typeof ToolCallTrace>;
export type ToolSearchTrace = z.infer<typeof ToolSearchTrace>;
export type CompactionTrace = z.infer<typeof CompactionTrace>;
export type CodeExecutionTrace = z.infer<typeof CodeExecutionTrace>;
