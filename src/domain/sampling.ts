import { API_IMAGE_TYPES, imageLimitProblem, sentImageType } from './media-probe';
import type { ContentBlock } from './message';

/** One piece of a message a server wants the model to read (MCP sampling content the app knows). */
export type SamplingContent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image' | 'audio'; readonly mimeType: string; readonly data: string };

export interface SamplingMessage {
  readonly role: 'user' | 'assistant';
  readonly content: readonly SamplingContent[];
}

/** A server's `sampling/createMessage`, as the app shows it to the person and runs it. */
export interface SamplingRequest {
  readonly messages: readonly SamplingMessage[];
  readonly systemPrompt?: string;
  /** What the server asked for; the call uses at most the person's own max tokens. */
  readonly maxTokens: number;
  /** Model names the server would like (hints), in its order of preference. */
  readonly modelHints: readonly string[];
  readonly priorities: { readonly cost?: number; readonly speed?: number; readonly intelligence?: number };
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  /** `thisServer` / `allServers` (soft-deprecated): no other context is added, whatever it asks. */
  readonly includeContext?: string;
}

/** The model's answer, as it goes back to the server once the person approved it. */
export interface SamplingReply {
  readonly model: string;
  readonly text: string;
  readonly stopReason: string;
}

/** The person (or the app) said no to a sampling request; the server gets a JSON-RPC error with this message. */
export class SamplingRejectedError extends Error {
  override readonly name = 'SamplingRejectedError';
}

type ModelMessage = { readonly role: 'user' | 'assistant'; readonly content: ContentBlock[] };

/** The server's messages as Messages API messages; a content the API does not take is a reason to refuse. */
export function samplingModelMessages(
  messages: readonly SamplingMessage[],
): { ok: true; messages: ModelMessage[] } | { ok: false; reason: string } {
  if (messages.length === 0) return { ok: false, reason: 'it sent no messages' };
  const out: ModelMessage[] = [];
  for (const message of messages) {
    const content: ContentBlock[] = [];
    for (const part of message.content) {
      if (part.type === 'text') content.push({ type: 'text', text: part.text });
      else if (part.type === 'audio') return { ok: false, reason: 'it sent audio, which the model API does not take' };
      else {
        const type = sentImageType(part.mimeType, part.data);
        if (!API_IMAGE_TYPES.has(type))
          return { ok: false, reason: `it sent an image of type ${part.mimeType}, which the model API does not take` };
        if (message.role !== 'user') return { ok: false, reason: 'it put an image in an assistant message' };
        const problem = imageLimitProblem(part.data);
        if (problem) return { ok: false, reason: `it sent an image the model API refuses: ${problem}` };
        content.push({ type: 'image', source: { type: 'base64', media_type: type, data: part.data } });
      }
    }
    if (content.length === 0) return { ok: false, reason: 'one of its messages is empty' };
    out.push({ role: message.role, content });
  }
  if (out[0]!.role !== 'user') return { ok: false, reason: 'its first message is not from the user' };
  return { ok: true, messages: out };
}

/** The max tokens of the call: what the server asked for, never more than the person's own setting. */
export function cappedMaxTokens(requested: number, personCap: number): number {
  return Math.max(1, Math.min(Math.floor(requested), personCap));
}

/** A note when the server hinted at models the person's model is not: the person's model answers all the same. */
export function modelChoiceNote(hints: readonly string[], model: string): string | undefined {
  if (hints.length === 0 || hints.some((hint) => hint && model.includes(hint))) return undefined;
  return `It asked for ${hints.map((h) => `"${h}"`).join(' or ')}; your model ${model} answers instead.`;
}

/** The text of an edited message back into the request: text parts replaced by the person's text, others kept. */
export function withEditedText(request: SamplingRequest, edits: { systemPrompt?: string; texts: string[] }) {
  let index = 0;
  const messages = request.messages.map((message) => ({
    ...message,
    content: message.content.map((part) =>
      part.type === 'text' ? { ...part, text: edits.texts[index++] ?? part.text } : part,
    ),
  }));
  const systemPrompt = edits.systemPrompt ?? request.systemPrompt;
  return { ...request, messages, ...(systemPrompt ? { systemPrompt } : {}) } satisfies SamplingRequest;
}

/** The texts of a request in order (what the person may edit before approving). */
export function requestTexts(request: SamplingRequest): string[] {
  return request.messages.flatMap((m) => m.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])));
}
