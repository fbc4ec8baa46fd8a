/** Content of a tool result, normalized from MCP's content blocks. */
export type ToolContent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly mimeType: string; readonly data: string }
  | { readonly type: 'audio'; readonly mimeType: string; readonly data: string }
  | {
      readonly type: 'resource_link';
      readonly uri: string;
      readonly name?: string;
      readonly mimeType?: string;
      readonly description?: string;
    }
  | {
      readonly type: 'resource';
      readonly uri: string;
      readonly mimeType?: string;
      readonly text?: string;
      readonly blob?: string;
      /** The content's `_meta` as the server sent it (an MCP App's resource declares its CSP there). */
      readonly meta?: Readonly<Record<string, unknown>>;
    };

/** A server's progress notification for a call in flight; `total` when the server knows it. */
export interface ToolProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** Why a tool call did not produce a result from the tool itself. */
export type ToolCallFailureKind =
  | 'timeout'
  | 'aborted'
  | 'connection'
  | 'http'
  | 'auth-required'
  | 'cors'
  | 'invalid-response'
  | 'protocol'
  | 'invalid-arguments'
  | 'unknown-tool'
  | 'tool-disabled'
  | 'server-unavailable';

export interface ToolCallFailure {
  readonly kind: ToolCallFailureKind;
  /** Readable by a person and by the model; never contains a secret. */
  readonly message: string;
  readonly status?: number;
}

/** What callTool returns, always: the tool's own result, or a failure described as one. */
export interface ToolCallResult {
  readonly content: readonly ToolContent[];
  readonly structuredContent?: Record<string, unknown>;
  /** True for a tool-reported error and for a failed call. */
  readonly isError: boolean;
  /** Set when the call itself failed (the tool may never have run). */
  readonly failure?: ToolCallFailure;
  readonly durationMs: number;
}

/** A failed call as a result: the failure plus a text block saying it, so the model learns why. */
export function failedResult(failure: ToolCallFailure, durationMs: number): ToolCallResult {
  return { content: [{ type: 'text', text: failure.message }], isError: true, failure, durationMs };
}
