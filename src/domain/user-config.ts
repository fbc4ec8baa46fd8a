import { z } from 'zod';
import { CodeExecutionMode } from './code-execution';
import { ServerId } from './server-config';
import { ApprovalRecords } from './server-trust';
import { AppServerToolOverrides } from './tool-overrides';
import { ToolSearchOverrides } from './tool-search-settings';
import { UsageLimitOverrides } from './usage-limits';

export const ProfileId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Profile id must be 1-64 letters, digits, "_" or "-"');

/** A profile's preferences; unset fields fall back to the app config's defaults. */
export const UserPreferences = z.object({
  model: z.string().min(1).optional(),
  baseUrl: z.url({ protocol: /^https?$/, error: 'Base URL must be an http(s) URL' }).optional(),
  maxTokens: z.number().int().min(1).max(128_000).optional(),
  /** The person's CORS relay; overrides the app config's relay.url. */
  relayUrl: z.url({ protocol: /^https?$/, error: 'Relay URL must be an http(s) URL' }).optional(),
  theme: z.enum(['system', 'light', 'dark']).default('system'),
  toolSearch: ToolSearchOverrides.default({}),
  /** Whether threads may run the model's code (execute_code) unless a thread says otherwise; absent: local. */
  codeExecution: CodeExecutionMode.optional(),
  /** Whether tool results show the MCP Apps their tools declare (issue #21); absent: on. Off: the plain result shows. */
  mcpApps: z.boolean().optional(),
  /** Spending limits over the app's defaults (null: no limit, even where the app sets one). */
  limits: UsageLimitOverrides.default({}),
});
export type UserPreferences = z.infer<typeof UserPreferences>;

/** One local profile (several people may share a browser). Its servers are stored as records of their own. */
export const UserConfig = z.object({
  id: ProfileId,
  name: z.string().trim().min(1, 'Profile name is required').max(64, 'Profile name must be at most 64 characters'),
  createdAt: z.number().int().nonnegative(),
  /** Servers a new thread starts with enabled. */
  defaultServerIds: z.array(ServerId).default([]),
  preferences: UserPreferences.default({ theme: 'system', toolSearch: {}, limits: {} }),
  /**
   * Directory entries (registry names) the app added on its own (`discovery.autoDiscover`): each only once, so a
   * server the person removed is never added again.
   */
  autoDiscovered: z.array(z.string().max(200)).max(10_000).default([]),
  /** The thread open when the app was last used, reopened on start. */
  lastThreadId: z.string().optional(),
  /** "Always allow": tool key ("server/tool") → the definition's hash and the server origin it was allowed for. */
  alwaysAllow: ApprovalRecords.default({}),
  /** Ids of servers removed from this profile → the origin each last had: an id never goes to another origin. */
  retiredServerIds: z.record(z.string(), z.string()).default({}),
  /** The app's servers as this profile last started with them (id → origin and auth kind), to see one move. */
  appServerTrust: z
    .record(z.string(), z.object({ origin: z.string(), authKind: z.enum(['none', 'bearer', 'headers', 'oauth']) }))
    .default({}),
  /**
   * The person's own tool switches and descriptions for servers the app provides (server id → tool name →
   * override), applied on top of the deployer's. Absent in profiles stored before it existed: the default fills it.
   */
  appServerToolOverrides: AppServerToolOverrides.default({}),
});
export type UserConfig = z.infer<typeof UserConfig>;
export type UserConfigInput = z.input<typeof UserConfig>;
