import type { Logger } from '../domain/logger';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { UserConfig, UserPreferences } from '../domain/user-config';
import type { ModelPort } from '../agent/model-port';
import type { OpenSandbox } from '../agent/code/sandbox-port';
import type { Registry } from '../mcp/registry';
import type { ClientHandlers } from '../mcp/client-factory';
import type { ServerRequests } from './server-requests';
import type { SamplingRequests } from './sampling-requests';
import type { PromptActions, PromptsState } from './prompts-store';
import type { McpAppsActions, McpAppsStore, MountApp } from './mcp-apps';
import type { ServerDirectory } from '../mcp/server-directory';
import type { Locks } from '../platform/locks';
import type { TurnNewsChannel } from '../platform/turn-news';
import type { ChatActions, ChatStore } from './chat-store';
import { createDraft, type DraftStore } from './draft';
import type { ResourceActions } from './resource-attachments';
import { createAttachmentDraft, type AttachmentDraftHandle } from './attachment-draft';
import type { SettingsActions } from './settings-actions';
import type { AppConfigLoad } from '../storage/app-config-source';
import type { DroppedApproval } from '../storage/approval-notices-repo';
import type { Storage } from '../storage/storage';
import type { WordVectors } from '../search/word-vectors';
import type { DirectoryActions, DirectoryStore } from './directory-store';
import type { ServerActions, ServersStore } from './servers-store';
import type { VaultLockActions, VaultLockStore } from './vault-lock';
import { shrinkImage } from '../platform/image-shrink';

/** What start-up needs from the composition root. */
export interface AppServices {
  readonly storage: Storage;
  readonly loadAppConfig: () => Promise<AppConfigLoad>;
  /** The MCP registry of one profile (credentials and catalogs are per profile). */
  readonly createRegistry: (
    profileId: string,
    oauth: AppConfigLoad['config']['oauth'],
    handlers?: ClientHandlers,
  ) => Registry;
  /** Ids for the questions servers ask the person. */
  readonly newId?: () => string;
  readonly createModel: (apiKey: string, baseUrl: string) => ModelPort;
  readonly sha256Hex: (text: string) => Promise<string>;
  readonly now: () => number;
  /** Opens the sandbox the model's code runs in (execute_code); without it no thread offers the tool. */
  readonly openCodeSandbox?: OpenSandbox;
  /** Web Locks of this origin: a running turn holds its thread's lock across tabs. */
  readonly locks?: Locks;
  /** What the turns running in this origin's tabs wait for (a call shown here as waiting for approval there). */
  readonly turnNews?: TurnNewsChannel;
  /** Copies the open profile's theme where the next page load can apply it before its first paint. */
  readonly rememberTheme?: (theme: UserPreferences['theme']) => void;
  /** A client of the server registry the app config names for "Find servers". */
  readonly createDirectory?: (endpoint: string) => ServerDirectory;
  /** Where failures the app goes on past are reported (silent when omitted). */
  readonly logger?: Logger;
  /** Mounts an MCP App's sandboxed frame (issue #21); without it tool results show no apps. */
  readonly mountMcpApp?: MountApp;
  /** Opens a link an app asked for (after the person confirmed it) in a new tab. */
  readonly openExternal?: (url: string) => void;
  /** Tool search's word vectors (semantic re-ranking); without them, or until they load, it ranks by words alone. */
  readonly loadWordVectors?: () => Promise<WordVectors>;
}

export interface AppState {
  readonly phase: 'starting' | 'ready' | 'failed';
  /** Why the app cannot work (storage unavailable, closed by a newer tab); shown instead of the app. */
  readonly fatal?: string;
  /** The composer's text, typed from the first frame on, while storage opens, and kept through start-up. */
  readonly draft: DraftStore;
  /** The composer's attachments (files, resources), kept like the draft. */
  readonly attachments: AttachmentDraftHandle;
  readonly appConfig?: AppConfigLoad;
  readonly profile?: UserConfig;
  readonly registry?: Registry;
  readonly servers?: ServersStore;
  readonly serverActions?: ServerActions;
  /** "Find servers": only when the app config enables a server directory. */
  readonly directory?: { readonly store: DirectoryStore; readonly actions: DirectoryActions };
  readonly chat?: ChatStore;
  readonly chatActions?: ChatActions;
  /** Resources of the servers: browsed, attached to the message being written, followed until it is sent. */
  readonly resources?: ResourceActions;
  /** Servers' questions to the person (elicitation), shown in the chat. */
  readonly serverRequests?: ServerRequests;
  /** Servers' requests to run the model (sampling), shown in the chat for approval. */
  readonly samplingRequests?: SamplingRequests;
  /** The `/` prompts of the open thread's servers. */
  readonly prompts?: { readonly store: StoreApi<PromptsState>; readonly actions: PromptActions };
  /** MCP Apps in tool results (issue #21): their approvals, confirmations and requests. */
  readonly mcpApps?: { readonly store: McpAppsStore; readonly actions: McpAppsActions };
  readonly settings?: SettingsActions;
  /** The profile's passphrase lock (status, unlock, lock, idle lock). */
  readonly vaultLock?: VaultLockStore;
  readonly vaultActions?: VaultLockActions;
  /** First run: no API key yet, so Settings opens. */
  readonly needsApiKey?: boolean;
  /** Servers that could not be registered (stored records that no longer validate, name clashes). */
  readonly serverProblems: readonly string[];
  /** Approvals the storage upgrade dropped for this profile (stored without their server's origin); shown once. */
  readonly droppedApprovals?: readonly DroppedApproval[];
}

export type AppStore = StoreApi<AppState>;

/** Start-up itself (storage, registry, chat) is start-app.ts, loaded after the first frame. */

export function createAppStore(): AppStore {
  return createStore<AppState>(() => ({
    phase: 'starting',
    serverProblems: [],
    draft: createDraft(),
    attachments: createAttachmentDraft(undefined, shrinkImage),
  }));
}
