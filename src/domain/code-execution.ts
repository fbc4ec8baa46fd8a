import { z } from 'zod';
import { CODE_EXECUTION_MODES } from './code-names';

export { ANTHROPIC_CODE_EXECUTION_NAME, ANTHROPIC_CODE_EXECUTION_TYPE, EXECUTE_CODE_NAME } from './code-names';

/** Where a thread's code runs (code-names.ts). */
export const CodeExecutionMode = z.enum(CODE_EXECUTION_MODES);
export type CodeExecutionMode = z.infer<typeof CodeExecutionMode>;

/**
 * The deployer's default in app-config.json `defaults.enableProgrammaticCalling`: a mode, or true (local) / false
 * (off) as the design names it.
 */
export const AppCodeExecutionDefault = z
  .union([z.boolean(), CodeExecutionMode], {
    error: 'enableProgrammaticCalling must be true, false, "local", "anthropic" or "off"',
  })
  .transform((value): CodeExecutionMode => (value === true ? 'local' : value === false ? 'off' : value));

/** The tiers of the "code" setting, most specific first: one call (a turn), the thread, the profile, the app. */
export interface CodeExecutionTiers {
  readonly call?: CodeExecutionMode;
  readonly thread?: CodeExecutionMode;
  readonly user?: CodeExecutionMode;
  readonly app: CodeExecutionMode;
}

/** Where a turn's code runs: call over thread over user over app (issue #24 item 3). */
export function resolveCodeExecutionMode(tiers: CodeExecutionTiers): CodeExecutionMode {
  return tiers.call ?? tiers.thread ?? tiers.user ?? tiers.app;
}

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

/** The caller of a tool_use the API's code execution made (`caller` on the block); the model's own calls have none. */
export const ServerToolCaller = z.object({ type: z.string(), tool_id: z.string() });
export type ServerToolCaller = z.infer<typeof ServerToolCaller>;
