import { z } from 'zod';

export const Usage = z.object({
  input: z.number().int().nonnegative(),
  output: z.number().int().nonnegative(),
  cacheRead: z.number().int().nonnegative().default(0),
  cacheWrite: z.number().int().nonnegative().default(0),
});
export type Usage = z.infer<typeof Usage>;

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
});

export const Approval = z.enum(['allow-once', 'allow-thread', 'allow-always', 'deny']);
export type Approval = z.infer<typeof Approval>;

/** One tool call of a turn. */
export const ToolCallTrace = z.object({
  kind: z.literal('tool-call'),
  toolUseId: z.string(),
  serverId: z.string().optional(),
  tool: z.string(),
  arguments: z.unknown(),
  /** How the call was allowed (or refused), and who decided: the person, a stored rule, the tool's annotations. */
  approval: z
    .object({
      decision: z.union([Approval, z.literal('auto-allow')]),
      by: z.enum(['person', 'rule', 'annotation', 'policy']),
    })
    .optional(),
  resultSummary: z.string(),
  isError: z.boolean(),
  durationMs: z.number().nonnegative(),
  error: z.string().optional(),
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
});

export const TraceEntry = z.discriminatedUnion('kind', [
  ModelCallTrace,
  ToolCallTrace,
  ToolSearchTrace,
  CodeExecutionTrace,
]);
export type TraceEntry = z.infer<typeof TraceEntry>;
export type ModelCallTrace = z.infer<typeof ModelCallTrace>;
export type ToolCallTrace = z.infer<typeof ToolCallTrace>;
export type ToolSearchTrace = z.infer<typeof ToolSearchTrace>;
export type CodeExecutionTrace = z.infer<typeof CodeExecutionTrace>;
