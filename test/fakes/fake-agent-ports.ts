import { toParams } from '../../src/agent/anthropic-model';
import type { ModelMessage, ModelPort, ModelRequest, ModelResult } from '../../src/agent/model-port';
import type { TurnPersistence } from '../../src/agent/turn-deps';
import type { ContentBlock, Message, NewMessage } from '../../src/domain/message';
import { ModelError } from '../../src/domain/model-errors';
import { promptTokens } from './fake-anthropic-cache';
import { contractViolation } from './fake-anthropic-contract';
import { invalidRequestReason } from './fake-anthropic-validate';

/** The body the app's Anthropic adapter (src/agent/anthropic-model.ts) sends for `request`. */
function wireBody(request: ModelRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { ...toParams(request) };
  delete body.stream; // The port is not a stream; the rules do not depend on it.
  return body;
}

/** The adapter's error for a request the real API refuses (the contract fake's rules), or null. */
function refusal(request: ModelRequest): ModelError | null {
  const body = wireBody(request);
  const headers = { 'anthropic-version': '2023-06-01' };
  const message =
    invalidRequestReason(body) ??
    contractViolation(body, { headers, contextWindowTokens: 200_000, inputTokens: promptTokens(body) });
  return message ? new ModelError('bad-request', message, 400) : null;
}
import type { StoredApproval } from '../../src/domain/server-trust';

/** One scripted answer of the fake model: blocks to stream (text chunk by chunk), or an error. */
type FixedAnswer =
  | {
      readonly blocks: ContentBlock[];
      readonly stopReason?: string;
      readonly chunkDelayMs?: number;
      /** Called after each streamed chunk (n from 1): a test advances its clock or aborts here, with no timer. */
      readonly onChunk?: (n: number) => unknown;
    }
  | { readonly error: ModelError };
export type ScriptedAnswer = FixedAnswer | ((request: ModelRequest) => FixedAnswer);

/**
 * A ModelPort that plays a script, records each request, and honours the abort signal while streaming. It is no kinder
 * than the API: a request the contract fake would refuse fails as the adapter reports a 400.
 */
export class ScriptedModel implements ModelPort {
  readonly requests: ModelRequest[] = [];
  constructor(private readonly script: ScriptedAnswer[]) {}

  async stream(
    request: ModelRequest,
    onSnapshot: (blocks: ContentBlock[]) => void,
    signal: AbortSignal,
  ): Promise<ModelResult> {
    this.requests.push(request);
    const refused = refusal(request);
    if (refused) throw refused;
    const next = this.script.shift();
    if (!next) throw new Error('the model script ran out');
    const answer: FixedAnswer = typeof next === 'function' ? next(request) : next;
    if ('error' in answer) throw answer.error;
    const shown: ContentBlock[] = [];
    let chunks = 0;
    for (const block of answer.blocks) {
      if (block.type === 'text') {
        // Stream the text word by word, as the API streams deltas.
        let text = '';
        shown.push({ type: 'text', text });
        for (const word of block.text.split(/(?<= )/)) {
          if (signal.aborted) throw new DOMException('aborted', 'AbortError');
          text += word;
          shown[shown.length - 1] = { type: 'text', text };
          onSnapshot([...shown]);
          await answer.onChunk?.(++chunks);
          if (answer.chunkDelayMs) await new Promise((r) => setTimeout(r, answer.chunkDelayMs));
        }
      } else {
        shown.push(block);
        onSnapshot([...shown]);
      }
    }
    if (signal.aborted) throw new DOMException('aborted', 'AbortError');
    const stopReason =
      answer.stopReason ?? (answer.blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
    return { blocks: answer.blocks, stopReason, usage: { input: 100, output: 20, cacheRead: 80, cacheWrite: 0 } };
  }

  async listModels(): Promise<string[]> {
    return ['claude-test'];
  }
}

/** In-memory persistence of one thread's messages and approvals. */
export class MemoryTurnStore implements TurnPersistence {
  readonly messages: Message[] = [];
  readonly writes: { id: string; at: number }[] = [];
  readonly threadApprovals: Record<string, StoredApproval> = {};
  readonly alwaysApprovals: Record<string, StoredApproval> = {};
  private seq = 0;
  constructor(private readonly now: () => number = () => Date.now()) {}

  async history() {
    return this.messages.map((m) => ({ ...m }));
  }
  async append(input: NewMessage) {
    const message: Message = {
      trace: [],
      ...input,
      id: `m${this.seq}`,
      threadId: 't',
      seq: this.seq++,
      createdAt: this.now(),
      updatedAt: this.now(),
    };
    this.messages.push(message);
    this.writes.push({ id: message.id, at: this.now() });
    return { ...message };
  }
  async update(id: string, change: Partial<Pick<Message, 'blocks' | 'status' | 'error' | 'trace'>>) {
    const index = this.messages.findIndex((m) => m.id === id);
    const next = { ...this.messages[index]!, ...change, updatedAt: this.now() };
    this.messages[index] = next;
    this.writes.push({ id, at: this.now() });
    return { ...next };
  }
  async allowForThread(key: string, approval: StoredApproval) {
    this.threadApprovals[key] = approval;
  }
  async allowAlways(key: string, approval: StoredApproval) {
    this.alwaysApprovals[key] = approval;
  }
  texts(): string[] {
    return this.messages.map((m) => m.blocks.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join(''));
  }
}

export function lastUserText(request: ModelRequest): string {
  const last: ModelMessage | undefined = request.messages.at(-1);
  return JSON.stringify(last?.content ?? []);
}
