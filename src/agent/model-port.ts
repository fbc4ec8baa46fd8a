import type { CompactionBlock } from '../domain/compaction';
import type { ContentBlock } from '../domain/message';
import type { LimitCounts, Usage } from '../domain/trace';
import type { ModelTool } from '../domain/tool';

/** A message as the Messages API takes it; content blocks are the app's own (they are API-shaped). */
export interface ModelMessage {
  readonly role: 'user' | 'assistant';
  readonly content: readonly ContentBlock[];
}

export interface ModelRequest {
  readonly model: string;
  readonly maxTokens: number;
  readonly system?: string;
  readonly messages: readonly ModelMessage[];
  /**
   * Text the model reads after the conversation, in the newest user message that may hold text, outside the cached
   * prefix, so that it may change between requests (what MCP Apps report). Not part of the stored history.
   */
  readonly trailingContext?: string;
  readonly tools: readonly ModelTool[];
  /** Extended thinking budget; omitted to turn thinking off. */
  readonly thinkingBudget?: number;
  /** The API's compaction block of an earlier answer, sent back first (server-side compaction beta). */
  readonly compactionBlock?: CompactionBlock;
  /** Ask the API to compact the context in this call once its input reaches this many tokens (compaction beta). */
  readonly serverCompaction?: { readonly triggerTokens: number };
  /** Programmatic tool calling: the id of the container the turn's code runs in (from an earlier answer of the turn). */
  readonly container?: string;
}

export interface ModelResult {
  readonly blocks: ContentBlock[];
  readonly stopReason: string | null;
  readonly usage: Usage;
  /** The API compacted the context before answering: its compaction block, to keep and send back. */
  readonly compaction?: CompactionBlock;
  /** The code execution container the answer used (programmatic tool calling), to send with the turn's next call. */
  readonly container?: { readonly id: string; readonly expiresAt: string };
  /** The counts of the person's limits as checked just before the call (set by the limit check; absent: no limit). */
  readonly limits?: LimitCounts;
}

/**
 * The API refused an attempt with a status it is retried after (429, 529, another 5xx): the client waits and tries
 * again. `seconds` is the wait the API asked for (retry-after), when it said.
 */
export interface ModelRetry {
  readonly status: number;
  readonly seconds?: number;
}

/**
 * The model API. `onSnapshot` gets the whole answer so far as it streams, with the tokens counted so far (the input
 * as the API reported it at the start; the output estimated until the API's own count arrives at the end), so that an
 * answer stopped halfway still counts what it used. `onRetry` is told when an attempt is refused and will be retried
 * (and told undefined as the next attempt starts). Throws ModelError.
 */
export interface ModelPort {
  stream(
    request: ModelRequest,
    onSnapshot: (blocks: ContentBlock[], usage?: Usage) => void,
    signal: AbortSignal,
    onRetry?: (retry: ModelRetry | undefined) => void,
  ): Promise<ModelResult>;
  listModels(): Promise<string[]>;
  /** The model's context window in tokens as the API lists it; undefined when the endpoint does not say. */
  contextWindow?(model: string): Promise<number | undefined>;
}
