import { z } from 'zod';
import { AttachmentRef } from './attachment';
import { ServerToolCaller } from './code-execution';
import { TraceEntry } from './trace';

const TextBlock = z.object({ type: z.literal('text'), text: z.string() });
const ImageBlock = z.object({
  type: z.literal('image'),
  source: z.object({ type: z.literal('base64'), media_type: z.string(), data: z.string() }),
});
/** A PDF (base64) or plain-text document, as an attachment is sent (never stored in a message: see attachments). */
const DocumentBlock = z.object({
  type: z.literal('document'),
  source: z.discriminatedUnion('type', [
    z.object({ type: z.literal('base64'), media_type: z.literal('application/pdf'), data: z.string() }),
    z.object({ type: z.literal('text'), media_type: z.literal('text/plain'), data: z.string() }),
  ]),
  title: z.string().optional(),
});
const ThinkingBlock = z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().optional() });
const RedactedThinkingBlock = z.object({ type: z.literal('redacted_thinking'), data: z.string() });
/** `caller`: set when Anthropic's code execution made the call (programmatic tool calling); sent back as received. */
const ToolUseBlock = z.object({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
  caller: ServerToolCaller.optional(),
});
/** A deferred tool named in a tool_search result (anthropic mode): the API expands it into its definition. */
const ToolReferenceBlock = z.object({ type: z.literal('tool_reference'), tool_name: z.string() });
const ToolResultBlock = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.array(z.discriminatedUnion('type', [TextBlock, ImageBlock, ToolReferenceBlock])),
  is_error: z.boolean().optional(),
});

/** The API's own tool search ("server" mode) called by the model; the API runs it and answers in the same message. */
const ServerToolUseBlock = z.object({
  type: z.literal('server_tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
});
/** What the API's tool search found: references to deferred tools, which the API expands (or an error code). */
const ToolSearchToolResultBlock = z.object({
  type: z.literal('tool_search_tool_result'),
  tool_use_id: z.string(),
  content: z.discriminatedUnion('type', [
    z.object({ type: z.literal('tool_search_tool_search_result'), tool_references: z.array(ToolReferenceBlock) }),
    z.object({
      type: z.literal('tool_search_tool_result_error'),
      error_code: z.string(),
      error_message: z.string().nullable().optional(),
    }),
  ]),
});

/**
 * What Anthropic's code execution gave back when the model's code ended (programmatic tool calling): its output, an
 * encrypted output, or an error code. Kept as received (the API wants it back as it sent it).
 */
const CodeExecutionToolResultBlock = z.object({
  type: z.literal('code_execution_tool_result'),
  tool_use_id: z.string(),
  content: z.object({
    type: z.string(),
    stdout: z.string().optional(),
    encrypted_stdout: z.string().optional(),
    stderr: z.string().optional(),
    return_code: z.number().optional(),
    error_code: z.string().optional(),
    /** Files the code made (`code_execution_output` blocks with a file id). */
    content: z.array(z.object({ type: z.string(), file_id: z.string() })).optional(),
  }),
});

/** Content blocks as the Messages API knows them, kept as sent and received. */
export const ContentBlock = z.discriminatedUnion('type', [
  TextBlock,
  ImageBlock,
  DocumentBlock,
  ThinkingBlock,
  RedactedThinkingBlock,
  ToolUseBlock,
  ToolResultBlock,
  ServerToolUseBlock,
  ToolSearchToolResultBlock,
  CodeExecutionToolResultBlock,
]);
export type ContentBlock = z.infer<typeof ContentBlock>;

export const MessageStatus = z.enum(['complete', 'streaming', 'interrupted', 'error']);
export type MessageStatus = z.infer<typeof MessageStatus>;

/** One message of a thread, ordered by `seq` within it. */
export const Message = z.object({
  id: z.string().min(1),
  threadId: z.string().min(1),
  seq: z.number().int().nonnegative(),
  /** The message this one follows on its branch; null for a thread's first message (absent: stored before branches). */
  parentId: z.string().min(1).nullable().optional(),
  role: z.enum(['user', 'assistant']),
  blocks: z.array(ContentBlock),
  status: MessageStatus,
  /** A message a person can read when status is error, or a note (turn limit reached, answer cut short). */
  error: z.string().optional(),
  /** A failed answer the person retried: it keeps what arrived, to read, but is never sent to the model again. */
  retried: z.literal(true).optional(),
  /** What happened to produce this message: model calls, tool searches, tool calls. */
  trace: z.array(TraceEntry).default([]),
  /** Files and resources the person attached; their bytes are blobs in the attachments store, sent with the text. */
  attachments: z.array(AttachmentRef).optional(),
  createdAt: z.number().int().nonnegative(),
  updatedAt: z.number().int().nonnegative(),
});
export type Message = z.infer<typeof Message>;
export type NewMessage = Pick<Message, 'role' | 'blocks' | 'status'> & {
  error?: string;
  trace?: TraceEntry[];
  attachments?: AttachmentRef[];
};
