import type { CodeLimits } from '../domain/code-execution';
import type { Logger } from '../domain/logger';
import type { Message, NewMessage } from '../domain/message';
import type { PriceTable } from '../domain/pricing';
import type { ThreadTools } from '../domain/thread-tools';
import type { ToolProgress } from '../domain/tool-result';
import type { TraceEntry } from '../domain/trace';
import type { OpenSandbox, PersonAsked } from './code/sandbox-port';
import type { CompactionDeps } from './model-call-context';
import type { ModelPort } from './model-port';

/** A change to a stored message. */
export type MessageChange = Partial<Pick<Message, 'blocks' | 'status' | 'error' | 'trace'>>;

/** Where a turn keeps what it produces; every finished message is written as it completes. */
export interface TurnPersistence {
  history(): Promise<Message[]>;
  append(message: NewMessage): Promise<Message>;
  update(id: string, change: MessageChange): Promise<Message>;
}

export interface TurnSettings {
  readonly model: string;
  readonly maxTokens: number;
  readonly system?: string;
  /** Sent after the conversation in each model call of the turn, outside the cached prefix (ModelRequest). */
  readonly trailingContext?: string;
  readonly thinkingBudget?: number;
  readonly maxModelCalls: number;
  readonly resultCapChars?: number;
  /** How often a streaming answer is written to storage at most. */
  readonly persistEveryMs?: number;
  /** Dollars per million tokens by model: each model call's trace shows its cost (tokens only for unknown models). */
  readonly prices?: PriceTable;
}

export interface TurnDeps {
  readonly model: ModelPort;
  /** The thread's tools for this turn: the only way the turn reaches a tool (permission, approval, trace). */
  readonly tools: ThreadTools;
  readonly persistence: TurnPersistence;
  readonly now: () => number;
  readonly settings: TurnSettings;
  /** Keeps the thread's model context within its window (compaction); without it the whole history is sent. */
  readonly compaction?: CompactionDeps;
  /** execute_code: offered, and run in a fresh sandbox per call, when set (the thread's "code" setting is on). */
  readonly code?: CodeSetup;
  /** Programmatic tool calling: the API's code execution runs the model's code and calls the thread's tools. */
  readonly isAnthropicCode?: boolean;
  /** Called with each change of a message (streamed text, tool results) for the UI. */
  readonly onMessage?: (message: Message) => void;
  /** Where failures the turn goes on past are reported (silent when omitted). */
  readonly logger?: Logger;
  /** Called with each progress notification of a tool call in flight, by its tool_use id. */
  readonly onToolProgress?: (toolUseId: string, progress: ToolProgress) => void;
  /** Takes the trace of model calls servers made during the tool calls (sampling), stored with the calls' trace. */
  readonly takeSideTrace?: () => TraceEntry[];
}

/** How a turn runs the model's code: the sandbox to open and its limits. */
export interface CodeSetup {
  readonly open: OpenSandbox;
  readonly limits: CodeLimits;
  /** While the person is asked something, the code's time limit stands still. */
  readonly personAsked?: PersonAsked;
}

export type TurnOutcome =
  { readonly status: 'done' | 'stopped' | 'limit' } | { readonly status: 'error'; readonly error: string };
