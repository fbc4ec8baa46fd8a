import { z } from 'zod';

/** The tool the model calls to run code that calls tools (issue #18; the name is a contract). */
export const EXECUTE_CODE_NAME = 'execute_code';

/** Where a thread's code runs: in the page's sandbox, or nowhere (no execute_code tool). */
export const CodeExecutionMode = z.enum(['local', 'off']);
export type CodeExecutionMode = z.infer<typeof CodeExecutionMode>;

/** The limits of one execute_code call. */
export interface CodeLimits {
  /** Wall time before the code is ended. */
  readonly timeoutMs: number;
  /** Tool calls the code may make. */
  readonly maxCalls: number;
  /** Characters of returned value and logged lines sent back to the model. */
  readonly outputChars: number;
}

export const DEFAULT_CODE_LIMITS: CodeLimits = { timeoutMs: 60_000, maxCalls: 50, outputChars: 20_000 };

/** Who made a tool call: the model directly, or code the model wrote (the execute_code call's id). */
export const CodeCaller = z.object({ kind: z.literal('code'), parentToolUseId: z.string() });
export type CodeCaller = z.infer<typeof CodeCaller>;

const SandboxError = z.object({
  name: z.string().max(200).catch('Error'),
  message: z.string(),
  line: z.number().int().positive().optional(),
});
export type SandboxError = z.infer<typeof SandboxError>;

/** A message from the sandbox. It comes from the model's code, so it is parsed like any untrusted input. */
export const SandboxMessage = z.union([
  z.object({ type: z.literal('call'), id: z.number().int(), name: z.string().max(300), args: z.unknown() }),
  z.object({ type: z.literal('log'), text: z.string(), isCapped: z.boolean() }),
  z.object({ type: z.literal('done'), ok: z.literal(true), value: z.string().optional() }),
  z.object({ type: z.literal('done'), ok: z.literal(false), error: SandboxError }),
]);
export type SandboxMessage = z.infer<typeof SandboxMessage>;

/** A message to the sandbox. */
export type PageMessage =
  | { readonly type: 'run'; readonly code: string; readonly logLimit: number }
  | { readonly type: 'result'; readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly type: 'result'; readonly id: number; readonly ok: false; readonly error: string }
  | { readonly type: 'kill' };
