// The names and modes of code execution, without the sandbox messages' schemas (code-execution.ts), so that the
// first screen does not load zod.

/** The tool the model calls to run code that calls tools (issue #18; the name is a contract). */
export const EXECUTE_CODE_NAME = 'execute_code';

/**
 * Where a thread's code runs: in the page's sandbox (execute_code), in Anthropic's code execution container
 * (programmatic tool calling: the API runs the code and asks this page for each tool call), or nowhere.
 */
export const CODE_EXECUTION_MODES = ['local', 'anthropic', 'off'] as const;
export type CodeExecutionMode = (typeof CODE_EXECUTION_MODES)[number];

export const isCodeExecutionMode = (value: string): value is CodeExecutionMode =>
  (CODE_EXECUTION_MODES as readonly string[]).includes(value);

// Anthropic's programmatic tool calling: https://platform.claude.com/docs/en/agents-and-tools/tool-use/programmatic-tool-calling
// It needs the code execution tool of version code_execution_20260120 (generally available: no beta header); a tool
// the code may call names that version in its `allowed_callers`.
/** The code execution tool version programmatic tool calling requires. */
export const ANTHROPIC_CODE_EXECUTION_TYPE = 'code_execution_20260120';
/** The code execution tool's fixed name. */
export const ANTHROPIC_CODE_EXECUTION_NAME = 'code_execution';
