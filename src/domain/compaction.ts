import { z } from 'zod';

/** The API's compaction block, kept as it came so it can be sent back verbatim (compaction docs). */
export const CompactionBlock = z.object({
  type: z.literal('compaction'),
  content: z.string().nullable(),
  encrypted_content: z.string().nullable().optional(),
  signature: z.string().nullable().optional(),
});
export type CompactionBlock = z.infer<typeof CompactionBlock>;

/**
 * One compaction of a thread's model context. The thread's messages all stay stored and shown; from this record on the
 * model sees its summary (or the API's compaction block) followed by the messages from `firstKeptSeq` onwards.
 */
export const ContextCompaction = z.object({
  id: z.string().min(1),
  threadId: z.string().min(1),
  /** server: the API's compaction; client: a summary the app asked the model for; cleared: old tool results left out. */
  method: z.enum(['server', 'client', 'cleared']),
  /** The first message the model still sees in full (the thread view marks it). */
  firstKeptMessageId: z.string().min(1),
  firstKeptSeq: z.number().int().nonnegative(),
  /** The summary text the model sees instead of the earlier messages (empty for `cleared`). */
  summary: z.string(),
  /** server only: the block to send back first, verbatim. */
  block: CompactionBlock.optional(),
  tokensBefore: z.number().int().nonnegative(),
  tokensAfter: z.number().int().nonnegative(),
  /** Said once in the thread: why the app summarizes itself (the endpoint refused the API's compaction). */
  note: z.string().optional(),
  createdAt: z.number().int().nonnegative(),
});
export type ContextCompaction = z.infer<typeof ContextCompaction>;
export type NewContextCompaction = Omit<ContextCompaction, 'id' | 'threadId' | 'createdAt'>;
