import { z } from 'zod';
import { MAX_APP_CONTEXT_CHARS } from './app-context';
import { CodeExecutionMode } from './code-execution';
import { ServerId } from './server-config';
import { ApprovalRecords } from './server-trust';
import { ThreadToolSearchOverrides } from './tool-search-settings';
import { SpendCapUsd } from './usage-limits';
import { ProfileId } from './user-config';

/** A tool the model has been given in this thread, remembered so later calls carry it too. */
export const LoadedTool = z.object({
  serverId: ServerId,
  toolName: z.string().min(1),
  lastUsedAt: z.number().int().nonnegative(),
});
export type LoadedTool = z.infer<typeof LoadedTool>;

/** One conversation's settings. */
export const ThreadConfig = z.object({
  id: z.string().min(1),
  profileId: ProfileId,
  title: z.string().trim().min(1, 'A thread needs a title.').max(200, 'A thread title can be at most 200 characters.'),
  createdAt: z.number().int().nonnegative(),
  updatedAt: z.number().int().nonnegative(),
  enabledServerIds: z.array(ServerId).default([]),
  model: z.string().min(1).optional(),
  systemPrompt: z.string().max(100_000, 'System prompt must be at most 100,000 characters').optional(),
  /** Extended thinking: the token budget, or absent for off. */
  thinkingBudget: z.number().int().min(1024, 'Thinking budget must be at least 1024 tokens').max(64_000).optional(),
  loadedTools: z.array(LoadedTool).default([]),
  pinnedTools: z.array(LoadedTool.omit({ lastUsedAt: true })).default([]),
  /** "Allow for this thread": tool key ("server/tool") → the definition's hash and the server origin it was allowed for. */
  approvals: ApprovalRecords.default({}),
  /**
   * Sampling "Allow for this thread" (issue #20): server id → the origin it was allowed at. Its requests then run and
   * answer without asking (still shown in the chat); another origin is another server and asks again.
   */
  samplingAllowed: z.record(z.string(), z.object({ origin: z.string().min(1) })).optional(),
  /** Tool search for this thread only (mode, strategy, preload count), over the profile's settings. */
  toolSearch: ThreadToolSearchOverrides.optional(),
  /** Servers whose instructions are left out of this thread's system prompt (all are in by default). */
  instructionsOff: z.array(ServerId).optional(),
  /** The start of the latest answer of the branch the thread shows, one line, for the thread list. */
  preview: z.string().max(300).optional(),
  /** Whether the model may run code that calls tools (execute_code); absent: the profile's choice. */
  codeExecution: CodeExecutionMode.optional(),
  /** Dollars this thread may spend on model calls: over the profile's default; null: no cap here. */
  maxCostUsd: SpendCapUsd.nullable().optional(),
  /** Model calls allowed per turn. */
  maxModelCalls: z.number().int().min(1).max(100).default(20),
  /**
   * What the thread's MCP Apps told the model (ui/update-model-context), the latest per app, by the tool call that
   * showed it, with the app's server; added to the system prompt of the next turns (see app-context.ts).
   */
  // A field the app cannot read back is dropped, never the thread with it.
  appContexts: z
    .record(z.string(), z.object({ serverId: ServerId, text: z.string().max(MAX_APP_CONTEXT_CHARS) }))
    .optional()
    .catch(undefined),
  /** The last message of the branch the thread shows (issue #22); absent: its newest message. */
  activeLeafId: z.string().min(1).optional(),
  /**
   * Deleted by the person and waiting out Undo: hidden from the list at once and in every tab, so a reload or a
   * closed tab does not bring it back; removed from storage when Undo's time is up, or at a later start.
   */
  deletedAt: z.number().int().nonnegative().optional(),
});
export type ThreadConfig = z.infer<typeof ThreadConfig>;
