import { createStore, type StoreApi } from 'zustand/vanilla';
import { describeError } from '../domain/errors';
import { silentLogger, type Logger } from '../domain/logger';
import { withAppContext } from '../domain/app-context';
import { buildAppCsp, withAppCsp } from '../domain/mcp-app-csp';
import { appResourceOf, appResourceUri, type AppResource } from '../mcp/app-resource';
import type { Registry } from '../mcp/registry';
import type { AppFrame, AppFrameOptions, AppToolResult } from '../platform/mcp-app-frame';
import { callToolForApp } from '../turns/app-tool-call';
import type { TurnRunnerDeps } from '../turns/turn-runner';
import type { AskApproval } from '../domain/thread-tools';
import type { Approval } from '../domain/trace';
import type { ChatActions, ChatStore, PendingApproval } from './chat-store';
import { createRateLimit, type RateLimit } from './rate-limit';

/** Mounts one app frame (the composition root binds the sandbox proxy's URL). */
export type MountApp = (container: HTMLElement, options: Omit<AppFrameOptions, 'proxyUrl'>) => AppFrame;

/** Something an app asks that the person confirms first: a message into the thread, or a link to open. */
export interface AppConfirmation {
  readonly id: string;
  /** The thread of the card whose app asked: shown there only. */
  readonly threadId: string;
  readonly kind: 'message' | 'link';
  readonly serverName: string;
  /** The message's text, or the link's full URL. */
  readonly text: string;
  /** The link's origin, shown on its own. */
  readonly origin?: string;
  readonly answer: (isYes: boolean) => void;
}

/** A tool with an app, as its card needs it. */
export interface AppOfTool {
  readonly serverId: string;
  readonly serverName: string;
  /** The server's origin, named while its app fills the window. */
  readonly origin: string;
  readonly uri: string;
}

/** An app's tool call waiting for the person, in the thread of the app's card. */
export interface AppPendingApproval extends PendingApproval {
  readonly threadId: string;
}

/** Where an app's request comes from: its card's thread, and a signal aborted when its frame is torn down. */
export interface AppRequestFrom {
  readonly threadId: string;
  readonly signal: AbortSignal;
}

export interface McpAppsState {
  /** Approvals of tool calls apps asked for (they outlive a turn: an app is used after its turn ended). */
  readonly approvals: readonly AppPendingApproval[];
  readonly confirmations: readonly AppConfirmation[];
}

export interface McpAppsActions {
  /**
   * The app of a call's result: the one its tool declared when it ran (`appUri`, kept with the call), while the tool is
   * one of the open thread's servers' and still declares it; none for a call that declared none.
   */
  appOf(modelName: string, appUri: string | undefined): AppOfTool | undefined;
  /** Reads and checks an app's document, its CSP applied; one line to show when it cannot be shown. */
  load(app: AppOfTool, signal?: AbortSignal): Promise<AppResource>;
  mount: MountApp;
  /** tools/call from an app: through the thread's tool path, caller "app", the same approvals. */
  callTool(
    app: AppOfTool,
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    from: AppRequestFrom,
  ): Promise<AppToolResult>;
  /** ui/message: asks the person in the card's thread; once confirmed there, sends it into that thread as the app's. */
  sendMessage(app: AppOfTool, text: string, from: AppRequestFrom): Promise<boolean>;
  /** ui/open-link: asks the person (showing the origin); once confirmed, opens it in a new tab. */
  openLink(app: AppOfTool, url: string, from: AppRequestFrom): Promise<boolean>;
  /**
   * ui/update-model-context from the app of `toolUseId` in `threadId` (its card's thread): stored with the thread (the
   * latest per app) for its next turns; resolves once stored, rejects when it could not be.
   */
  updateContext(threadId: string, app: AppOfTool, toolUseId: string, text: string): Promise<void>;
  /** Whether an app may make one more request now; past the rate, false (and the card says so). */
  mayRequest(toolUseId: string): boolean;
}

export type McpAppsStore = StoreApi<McpAppsState>;

export interface McpAppsDeps {
  readonly turns: TurnRunnerDeps;
  readonly registry: Pick<Registry, 'resolveToolName' | 'tools' | 'get' | 'readResource'>;
  readonly chat: ChatStore;
  readonly chatActions: Pick<ChatActions, 'send'>;
  readonly mount: MountApp;
  /** Opens a URL in a new tab, without opener or referrer. */
  readonly openExternal: (url: string) => void;
  readonly newId: () => string;
  readonly now: () => number;
  readonly logger?: Logger;
}

/** A signal aborted when any of `sources` aborts, until `unlink` (which removes its listeners from them). */
function linkedAbort(sources: readonly AbortSignal[]): { readonly signal: AbortSignal; readonly unlink: () => void } {
  const controller = new AbortController();
  const abort = () => controller.abort(sources.find((source) => source.aborted)?.reason);
  const unlink = () => sources.forEach((source) => source.removeEventListener('abort', abort));
  if (sources.some((source) => source.aborted)) abort();
  else sources.forEach((source) => source.addEventListener('abort', abort, { once: true }));
  return { signal: controller.signal, unlink };
}

/** The message text an app sends, marked as the app's (the person and the model both see who wrote it). */
export const fromApp = (serverName: string, text: string) => `[Sent by the app of ${serverName}]\n\n${text}`;

/**
 * MCP Apps of the chat (issue #21): reading their documents, and answering their requests. An app's tool call goes
 * through its thread's tool path, which says whose call it is: a server's question during it goes to that thread (see
 * server-calls.ts).
 */
export function createMcpApps(deps: McpAppsDeps): { store: McpAppsStore; actions: McpAppsActions } {
  const store = createStore<McpAppsState>(() => ({ approvals: [], confirmations: [] }));
  const logger = deps.logger ?? silentLogger;
  const limits = new Map<string, RateLimit>();
  const activeThread = () => deps.chat.getState().activeThreadId;

  // An app's tool call is asked about in its card's thread only.
  const askApproval =
    (threadId: string): AskApproval =>
    (request, signal) =>
      new Promise<Approval>((resolve) => {
        if (signal.aborted) return resolve('deny');
        const deny = () => pending.answer('deny');
        const pending: AppPendingApproval = {
          ...request,
          threadId,
          answer: (decision) => {
            signal.removeEventListener('abort', deny);
            store.setState({ approvals: store.getState().approvals.filter((p) => p !== pending) });
            resolve(decision);
          },
        };
        signal.addEventListener('abort', deny, { once: true });
        store.setState({ approvals: [...store.getState().approvals, pending] });
      });

  // Asked in the card's thread; declined when the app's frame is torn down before the person answers.
  const confirm = (request: Omit<AppConfirmation, 'id' | 'answer'>, signal: AbortSignal) =>
    new Promise<boolean>((resolve) => {
      if (signal.aborted) return resolve(false);
      const decline = () => confirmation.answer(false);
      const confirmation: AppConfirmation = {
        ...request,
        id: deps.newId(),
        answer: (isYes) => {
          if (!store.getState().confirmations.includes(confirmation)) return;
          // The frame's signal lives as long as the frame: its listener for this answer goes with the answer.
          signal.removeEventListener('abort', decline);
          store.setState({ confirmations: store.getState().confirmations.filter((c) => c !== confirmation) });
          resolve(isYes);
        },
      };
      signal.addEventListener('abort', decline, { once: true });
      store.setState({ confirmations: [...store.getState().confirmations, confirmation] });
    });

  const actions: McpAppsActions = {
    appOf(modelName, appUri) {
      if (!appUri) return undefined;
      const ref = deps.registry.resolveToolName(modelName);
      const { threads } = deps.chat.getState();
      const enabled = threads.find((t) => t.id === activeThread())?.enabledServerIds ?? [];
      if (!ref || !enabled.includes(ref.serverId)) return undefined;
      const tool = deps.registry.tools([ref.serverId]).find((t) => t.toolName === ref.toolName);
      const uri = tool ? appResourceUri(tool.definition) : undefined;
      return tool && uri === appUri
        ? { serverId: tool.serverId, serverName: tool.serverName, origin: tool.trust.origin, uri }
        : undefined;
    },
    async load(app, signal) {
      const resource = appResourceOf(app.uri, await deps.registry.readResource(app.serverId, app.uri, signal));
      if (!resource.ok) return resource;
      const csp = buildAppCsp(resource.csp);
      if (csp.refused.length > 0)
        logger.warn('An app declared origins its CSP leaves out', { uri: app.uri, refused: csp.refused });
      return { ...resource, html: withAppCsp(resource.html, csp.policy) };
    },
    mount: deps.mount,
    async callTool(app, name, args, signal, from) {
      const { threadId } = from;
      // Not AbortSignal.any: a signal made from the frame's stays alive with it while anything listens to it.
      const link = linkedAbort([signal, from.signal]);
      const outcome = await callToolForApp(deps.turns, {
        threadId,
        serverId: app.serverId,
        toolName: name,
        args,
        askApproval: askApproval(threadId),
        signal: link.signal,
        enabledServerIds: () => deps.chat.getState().threads.find((t) => t.id === threadId)?.enabledServerIds ?? [],
        callId: `app-${deps.newId()}`,
      }).finally(link.unlink);
      const { result } = outcome;
      return {
        content: result.content.map((item) => {
          if (item.type !== 'resource') return item;
          const { meta: _meta, ...rest } = item;
          return rest;
        }),
        ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
        ...(result.isError ? { isError: true } : {}),
      };
    },
    async sendMessage(app, text, from) {
      if (!text.trim()) return false;
      const isYes = await confirm(
        { kind: 'message', threadId: from.threadId, serverName: app.serverName, text },
        from.signal,
      );
      // Sent only into the thread it was asked in (its card shows there only, so that thread is the open one).
      if (!isYes || activeThread() !== from.threadId) return false;
      if (deps.chat.getState().isRunning) {
        deps.chat.setState({
          note: `The message of the app of ${app.serverName} was not sent: an answer is running.`,
        });
        return false;
      }
      await deps.chatActions.send(fromApp(app.serverName, text)).catch((error: unknown) => {
        deps.chat.setState({ notice: describeError(error) });
      });
      return true;
    },
    async openLink(app, url, from) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return false;
      }
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
      const isYes = await confirm(
        { kind: 'link', threadId: from.threadId, serverName: app.serverName, text: parsed.href, origin: parsed.origin },
        from.signal,
      );
      if (isYes) deps.openExternal(parsed.href);
      return isYes;
    },
    async updateContext(threadId, app, toolUseId, text) {
      // What an app says is no activity of the person's: the thread keeps its place in the list.
      await deps.turns.storage.threads.update(
        threadId,
        (current) => ({ appContexts: withAppContext(current.appContexts, toolUseId, app.serverId, text) }),
        { isActivity: false },
      );
    },
    mayRequest(toolUseId) {
      let limit = limits.get(toolUseId);
      if (!limit) limits.set(toolUseId, (limit = createRateLimit({ count: 20, windowMs: 10_000, now: deps.now })));
      return limit.take();
    },
  };
  return { store, actions };
}
