import { z } from 'zod';

const TextBlock = z.object({ type: z.literal('text'), text: z.string() });
const ImageBlock = z.object({
  type: z.literal('image'),
  source: z.object({ type: z.literal('base64'), media_type: z.string(), data: z.string() }),
});
const ThinkingBlock = z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().optional() });
const RedactedThinkingBlock = z.object({ type: z.literal('redacted_thinking'), data: z.string() });
const ToolUseBlock = z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() });
const ToolResultBlock = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.array(z.discriminatedUnion('type', [TextBlock, ImageBlock])),
  is_error: z.boolean().optional(),
});

/** Content blocks as the Messages API knows them, kept as sent and received. */
export const ContentBlock = z.discriminatedUnion('type', [TextBlock, ImageBlock, ThinkingBlock, RedactedThinkingBlock, ToolUseBlock, ToolResultBlock]);
export type ContentBlock = z.infer<typeof ContentBlock>;

export const MessageStatus = z.enum(['complete', 'streaming', 'interrupted', 'error']);
export type MessageStatus = z.infer<typeof MessageStatus>;

/** One message of a thread, ordered by `seq` within it. */
export const Message = z.object({
  id: z.string().min(1),
  threadId: z.string().min(1),
  seq: z.number().int().nonnegative(),
  role: z.enum(['user', 'assistant']),
  blocks: z.array(ContentBlock),
  status: MessageStatus,
  /** A message a person can read when status is error. */
  error: z.string().optional(),
  createdAt: z.number().int().nonnegative(),
  updatedAt: z.number().int().nonnegative(),
});
export type Message = z.infer<typeof Message>;
export type NewMessage = Pick<Message, 'role' | 'blocks' | 'status'> & { error?: string };
