import type { AppError } from '../domain/errors';
import { logFailure, silentLogger } from '../domain/logger';
import { serverOrigin } from '../domain/server-trust';
import { createToolIndex } from '../search/tool-index';
import { attachWordVectors } from './word-vectors-loading';
import type { AppServices, AppStore } from './app-store';
import { createChat } from './chat-store';
import { followThreadDrafts } from './draft';
import { persistThreadAttachments } from './draft-attachments-persistence';
import { persistThreadDrafts } from './draft-persistence';
import { createMcpApps } from './mcp-apps';
import type { TurnRunnerDeps } from '../turns/turn-runner';
import { createResourceActions } from './resource-attachments';
import { createServerResources } from '../mcp/server-resources';
import type { Registry } from '../mcp/registry';
import { createServerRequests, endQuestionsWithTurns, requestCaller, type RequestCaller } from './server-requests';
import { trackServerCalls } from './server-calls';
import { createFloodGuard, floodNote } from './flood-guard';
import { personAskedIn } from './person-asked';
import { createSamplingRequests, samplingTurnFinder } from './sampling-requests';
import { createPrompts } from './prompts-store';
import { createSettingsActions } from './settings-actions';
import { effectiveRelayUrl } from './relay-settings';
import { followServerChanges, syncAppToolOverrides, type ServerFollow } from './server-sync';
import { bindServerActions, createServersStore } from './servers-store';
import { syncToolIndex } from '../turns/tool-index-sync';
import { createVaultLock } from './vault-lock';
import {
  connectStartServers,
  enableInOpenThread,
  prepareProfile,
  registerServers,
  startDirectory,
} from './start-steps';

/** A deletion marked this long ago is finished at start-up; Undo lasts 10 s, so no tab is still offering it. */
const FINISH_DELETIONS_AFTER_MS = 60_000;

/** Opens storage, loads the app config and the active profile; failures become state, never throws. */
export async function startApp(
  store: AppStore,
  connect: (onLost: (error: AppError) => void) => Promise<AppServices>,
): Promise<AppServices | undefined> {
  try {
    const services = await connect((error) => store.setState({ phase: 'failed', fatal: error.message }));
    const logger = services.logger ?? silentLogger;
    const [appConfig, profile] = await Promise.all([
      services.loadAppConfig(),
      services.storage.profiles.ensureActive(),
    ]);
    // The profile's theme is the one applied; its copy lets the next load paint in it from the first frame.
    const rememberTheme = services.rememberTheme ?? (() => undefined);
    const newThreadServers = await prepareProfile(services.storage, appConfig.config, profile, logger);
    let requestCount = 0;
    // The chat and the apps are made after the registry: a server's question finds its thread through this once they
    // exist.
    let callerOf: (serverId: string) => RequestCaller | undefined = () => undefined;
    // What the app declined of a server, in that server's log: the registry keeps it (made below; no server can ask
    // before it is).
    let noteOn: Registry['note'] = () => undefined;
    const serverNotes: Pick<Registry, 'note'> = { note: (serverId, text, level) => noteOn(serverId, text, level) };
    let hostOf: (serverId: string) => string | undefined = () => undefined;
    const serverRequests = createServerRequests(
      services.newId ?? (() => `request-${++requestCount}`),
      (serverId) => callerOf(serverId),
      { notes: serverNotes, hostOf: (serverId) => hostOf(serverId) },
    );
    // The chat is made after the registry: a sampling request looks for its running turn through this, once it exists.
    let findSamplingTurn: Parameters<typeof createSamplingRequests>[1] = () => Promise.resolve(undefined);
    const samplingRequests = createSamplingRequests(
      services.newId ?? (() => `sampling-${++requestCount}`),
      (server, request) => findSamplingTurn(server, request),
      serverNotes,
    );
    const registry = services.createRegistry(profile.id, appConfig.config.oauth, {
      elicitation: serverRequests.elicitation,
      sampling: samplingRequests.sampling,
    });
    noteOn = (serverId, text, level) => registry.note(serverId, text, level);
    // Before the app's servers register, so none of their tools is offered even for a moment against the person's switch.
    registry.setAppToolOverrides(profile.appServerToolOverrides);
    hostOf = (serverId) => {
      const url = registry.get(serverId)?.config.url;
      return url !== undefined && URL.canParse(url) ? new URL(url).host : undefined;
    };
    // A server that sends more than 1,000 log or progress messages in 10 s has them held back for a while.
    const floodGuard = createFloodGuard({
      now: services.now,
      onFlood: (serverId) => registry.note(serverId, floodNote(registry.get(serverId)?.config.name ?? serverId)),
    });
    // A server may ask the person only while a call of it runs: the calls of turns and apps are counted here.
    const calls = trackServerCalls(registry, floodGuard);
    await registry.setRelayUrl(effectiveRelayUrl(profile.preferences.relayUrl, appConfig.config.relay.url));
    // Servers register while settings and the thread list are read: independent reads, in parallel.
    const registration = registerServers(registry, appConfig.config.servers, services.storage, profile.id);
    const index = createToolIndex();
    // Indexed in background slices as catalogs arrive (thousands of tools must not hold up typing); searches wait for it.
    // Storage's scheduler: a message search's hurry is a turn's too, and the person's keys are listened to once.
    const { slices } = services.storage;
    const indexSync = syncToolIndex(registry, index, slices, logger);
    const defaults = appConfig.config.defaults;
    const turnDeps: TurnRunnerDeps = {
      storage: services.storage,
      registry: calls.registry,
      index,
      // A server another tab added waits for a pause in typing: a turn hurries it in, then the index.
      indexSettled: async () => {
        await followingServers?.settled();
        await indexSync.settled();
      },
      profileId: profile.id,
      defaults,
      createModel: services.createModel,
      sha256Hex: services.sha256Hex,
      now: services.now,
      ...(services.locks ? { locks: services.locks } : {}),
      logger,
      ...(services.openCodeSandbox ? { openCodeSandbox: services.openCodeSandbox } : {}),
      personAsked: personAskedIn({
        chat: () => chat.store,
        requests: serverRequests.store,
        sampling: samplingRequests.store,
      }),
    };
    const chat = createChat(
      { ...turnDeps, ...(services.turnNews ? { turnNews: services.turnNews } : {}) },
      { countAsCall: calls.countAsCall },
    );
    callerOf = (serverId) =>
      requestCaller(
        chat.actions.runningTurn(),
        serverId,
        calls.running(serverId),
        (threadId) => chat.store.getState().threads.find((t) => t.id === threadId)?.enabledServerIds ?? [],
      );
    const { draft, attachments } = store.getState();
    const stopFollowingDrafts = followThreadDrafts(draft, chat.store, attachments.store);
    const stopEndingQuestions = endQuestionsWithTurns(chat.store, serverRequests);
    const keptDrafts = persistThreadDrafts({ draft, chat: chat.store, drafts: services.storage.drafts, logger });
    const keptAttachments = persistThreadAttachments({
      attachments: attachments.store,
      chat: chat.store,
      repo: services.storage.draftAttachments,
      logger,
    });
    const resources = createResourceActions({
      resources: createServerResources(registry, logger),
      logger,
      registry,
      chat: chat.store,
      draft: attachments,
      countAsCall: calls.countAsCall,
    });
    findSamplingTurn = samplingTurnFinder(
      () => chat.actions.runningTurn(),
      {
        storage: services.storage,
        profileId: profile.id,
        defaults,
        createModel: services.createModel,
        now: services.now,
      },
      (serverId) => {
        const url = registry.get(serverId)?.config.url;
        return url === undefined ? undefined : serverOrigin(url);
      },
      calls.isTurnCalling,
    );
    const prompts = createPrompts(registry, chat.actions, calls.countAsCall);
    let followingServers: ServerFollow | undefined = undefined; // Follows once the actions below exist.
    const discoveryStop = new AbortController();
    const vaultLock = createVaultLock({ storage: services.storage, registry, profileId: profile.id, logger });
    const { actions: settings } = createSettingsActions({
      storage: services.storage,
      registry,
      profileId: profile.id,
      defaults,
      ...(appConfig.config.relay.url ? { appRelayUrl: appConfig.config.relay.url } : {}),
      createModel: services.createModel,
      now: services.now,
      rememberTheme,
      logger,
      leave: async () => {
        discoveryStop.abort(new DOMException('The profile was left', 'AbortError'));
        chat.actions.stop();
        stopFollowingDrafts();
        stopEndingQuestions();
        keptDrafts.stop();
        keptAttachments.stop();
        resources.dispose();
        followingServers?.();
        indexSync.stop();
        vaultLock.dispose();
        await registry.close();
      },
      onProfile: (next) => {
        // The copy paints the next page load, which opens the active profile: another tab may have switched it.
        if (next)
          void services.storage.profiles
            .getActiveId()
            .then((active) => active === next.id && rememberTheme(next.preferences.theme))
            .catch(logFailure(logger, 'Reading the active profile failed'));
        store.setState(
          next
            ? { profile: next }
            : {
                phase: 'failed',
                fatal: 'This profile was deleted in another tab. Reload the page to open another one.',
              },
        );
      },
    });
    // Deletions a closed page left waiting for Undo are finished (not another tab's, whose Undo may still be on screen).
    void services.storage.threads
      .purgeDeleted(profile.id, services.now() - FINISH_DELETIONS_AFTER_MS)
      .catch(logFailure(logger, 'Removing deleted threads failed'));
    // The last thread's messages are read alongside too; a thread that no longer exists is closed again below.
    const restoring = profile.lastThreadId ? chat.actions.openThread(profile.lastThreadId, true) : undefined;
    const [problems, { hasApiKey }, droppedApprovals] = await Promise.all([
      registration,
      settings.load(),
      services.storage.approvalNotices
        .take(profile.id)
        .catch((error: unknown) => logFailure(logger, 'Reading the dropped approvals notice failed')(error) ?? []),
      chat.actions.refreshThreads(),
      restoring,
      vaultLock.actions.refresh(),
    ]);
    const servers = createServersStore(registry, { guard: floodGuard });
    const serverActions = bindServerActions(servers, {
      registry,
      storage: services.storage,
      profileId: profile.id,
      logger,
      enableInOpenThread: (serverId) => enableInOpenThread(chat, serverId),
    });
    followingServers = followServerChanges({
      storage: services.storage,
      registry,
      profileId: profile.id,
      logger,
      pauses: slices,
    });
    // A switch another tab changed while this one started (before it listened) counts too.
    void syncAppToolOverrides({ storage: services.storage, registry, profileId: profile.id }).catch(
      logFailure(logger, 'Reading tool switches changed in another tab failed'),
    );
    void attachWordVectors(index, services.loadWordVectors, logger);
    const { threads, activeThreadId } = chat.store.getState();
    if (activeThreadId && !threads.some((t) => t.id === activeThreadId))
      chat.store.setState({ activeThreadId: undefined, messages: [] });
    rememberTheme(profile.preferences.theme);
    connectStartServers(registry, chat.store.getState(), [...profile.defaultServerIds, ...newThreadServers]);
    const directory = startDirectory(appConfig.config.discovery, services.createDirectory, discoveryStop.signal, {
      registry,
      storage: services.storage,
      profileId: profile.id,
      logger,
      connect: (id) => serverActions.connect(id),
    });
    const mcpApps = services.mountMcpApp
      ? createMcpApps({
          turns: turnDeps,
          registry,
          chat: chat.store,
          chatActions: chat.actions,
          mount: services.mountMcpApp,
          openExternal: services.openExternal ?? (() => undefined),
          newId: services.newId ?? (() => `app-${++requestCount}`),
          now: services.now,
          logger,
        })
      : undefined;
    store.setState({
      ...(directory ? { directory } : {}),
      ...(mcpApps ? { mcpApps: { store: mcpApps.store, actions: mcpApps.actions } } : {}),
      phase: 'ready',
      appConfig,
      profile,
      registry,
      servers,
      serverActions,
      serverProblems: problems,
      droppedApprovals,
      chat: chat.store,
      chatActions: chat.actions,
      resources,
      serverRequests,
      samplingRequests,
      prompts: { store: prompts.store, actions: prompts.actions },
      settings,
      needsApiKey: !hasApiKey,
      vaultLock: vaultLock.store,
      vaultActions: vaultLock.actions,
    });
    return services;
  } catch (error) {
    store.setState({ phase: 'failed', fatal: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}
