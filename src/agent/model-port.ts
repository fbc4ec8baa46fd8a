import type { ContentBlock } from '../domain/message';
import type { Usage } from '../domain/trace';
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
  readonly tools: readonly ModelTool[];
  /** Extended thinking budget; omitted to turn thinking off. */
  readonly thinkingBudget?: number;
}

export interface ModelResult {
  readonly blocks: ContentBlock[];
  readonly stopReason: string | null;
  readonly usage: Usage;
}

/** The model API. `onSnapshot` gets the whole answer so far as it streams. Throws ModelError. */
export interface ModelPort {
  stream(
    request: ModelRequest,
    onSnapshot: (blocks: ContentBlock[]) => void,
    signal: AbortSignal,
  ): Promise<ModelResult>;
  listModels(): Promise<string[]>;
}
