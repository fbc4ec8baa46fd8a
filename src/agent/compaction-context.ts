import type { CompactionBlock, ContextCompaction } from '../domain/compaction';
import type { ContentBlock, Message } from '../domain/message';
import { toModelMessages } from './history';
import { documentTokens } from './document-tokens';
import { imageTokens } from './image-tokens';
import type { ModelMessage } from './model-port';

/** What a cleared tool result says in the model's context (the thread still shows the result). */
export const CLEARED_RESULT_TEXT =
  '[This older tool result was cleared from the model context to save room; the thread still shows it in full.]';
/** How a client-side summary starts in the model's context. */
export const SUMMARY_PREFIX =
  'Summary of the earlier part of this conversation (the app compacted it to stay within the context window; every message is still stored in the thread):\n\n';

/** The messages the model sees, plus the API's compaction block to send first (server compaction). */
export interface ModelContext {
  readonly messages: ModelMessage[];
  readonly compactionBlock?: CompactionBlock;
}

/** The compaction the model's context now starts from (a summary, by the server or the app), if any. */
export const latestSummary = (records: readonly ContextCompaction[]): ContextCompaction | undefined =>
  records.findLast((r) => r.method !== 'cleared');

const clearedResults = (message: Message): Message =>
  message.blocks.some((b) => b.type === 'tool_result')
    ? {
        ...message,
        blocks: message.blocks.map((b) =>
          b.type === 'tool_result' ? { ...b, content: [{ type: 'text', text: CLEARED_RESULT_TEXT }] } : b,
        ),
      }
    : message;

const PLACEHOLDER: ContentBlock = { type: 'text', text: '(context continues)' };
const placeholderMessage = (threadId: string): Message => ({
  id: 'context-placeholder',
  threadId,
  seq: 0,
  role: 'user',
  blocks: [PLACEHOLDER],
  status: 'complete',
  trace: [],
  createdAt: 0,
  updatedAt: 0,
});

/**
 * The thread as the model sees it after its compactions: the latest summary first (the app's text, or the API's
 * compaction block to send back verbatim), then the messages from its first kept one on, with the tool results a later
 * clearing left out replaced by a short note. The stored messages are never changed.
 */
export function contextOf(history: readonly Message[], records: readonly ContextCompaction[]): ModelContext {
  const summary = latestSummary(records);
  const clear = records.findLast((r) => r.method === 'cleared' && r.firstKeptSeq > (summary?.firstKeptSeq ?? -1));
  let tail = summary ? history.filter((m) => m.seq >= summary.firstKeptSeq) : [...history];
  if (clear) tail = tail.map((m) => (m.seq < clear.firstKeptSeq ? clearedResults(m) : m));
  if (!summary) return { messages: toModelMessages(tail) };
  if (summary.method === 'client' || !summary.block) {
    const text: ContentBlock = { type: 'text', text: `${SUMMARY_PREFIX}${summary.summary}` };
    return { messages: toModelMessages([{ ...placeholderMessage(summary.threadId), blocks: [text] }, ...tail]) };
  }
  // The compaction block opens the assistant answer that carried it; a leading placeholder keeps that answer (the
  // history helper drops leading assistant messages) and is taken out again.
  const [first, ...rest] = toModelMessages([placeholderMessage(summary.threadId), ...tail]);
  const kept = first ? first.content.filter((b) => b !== PLACEHOLDER) : [];
  const messages = first && kept.length > 0 ? [{ ...first, content: kept }, ...rest] : rest;
  return { messages, compactionBlock: summary.block };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * The token estimate of a request: four characters of its JSON make one token, and each base64 image counts as the
 * image it is (at most ~1,600 tokens), not as its data's text (a 150 KB screenshot is not 37,000 tokens).
 */
export function estimateTokens(value: unknown): number {
  let images = 0;
  const json = JSON.stringify(value, (_key, v: unknown) => {
    if (!isRecord(v) || !isRecord(v.source) || typeof v.source.data !== 'string') return v;
    if (v.type === 'document' && v.source.type === 'base64') images += documentTokens(v.source.data);
    else if (v.type === 'image') images += imageTokens(v.source.data);
    else return v;
    return { ...v, source: { ...v.source, data: '' } };
  });
  return Math.ceil((json?.length ?? 0) / 4) + images;
}

/** Estimated input tokens of one request: tools, system prompt, the context and the text sent after it. */
export function requestTokens(parts: {
  readonly tools: readonly unknown[];
  readonly system?: string;
  readonly trailingContext?: string;
  readonly context: ModelContext;
}): number {
  return estimateTokens([
    parts.tools,
    parts.system ?? '',
    parts.context.compactionBlock ?? null,
    parts.context.messages,
    ...(parts.trailingContext ? [parts.trailingContext] : []),
  ]);
}
