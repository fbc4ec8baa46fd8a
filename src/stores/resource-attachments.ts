import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ResourceContentItem, ResourceListing, ResourceTemplateInfo } from '../domain/server-resource';
import { expandTemplate, type ServerResources } from '../mcp/server-resources';
import type { Registry } from '../mcp/registry-types';
import { offerAttachments, type AttachmentDraftHandle, type OfferedAttachment } from './attachment-draft';
import type { ChatStore } from './chat-store';
import { allPendingItems, boxHolding, threadBox } from './draft';
import { logFailure, silentLogger, type Logger } from '../domain/logger';
import type { MentionOption } from './mention-options';
import { UNCOUNTED, type CountAsCall } from './server-calls';

/** The resources of the servers listed so far, by server id, and those being listed. */

/** The scheme of an MCP App's page (the Apps extension). */
const APP_PAGE_SCHEME = 'ui://';
export interface ResourceBrowserState {
  readonly listings: Readonly<Record<string, ResourceListing>>;
  readonly loading: Readonly<Record<string, boolean>>;
}

export type ResourceBrowser = StoreApi<ResourceBrowserState>;

export interface ResourceActions {
  readonly store: ResourceBrowser;
  /** Lists a server's resources and templates again. */
  load(serverId: string): Promise<void>;
  /** Lists the resources of the open thread's servers not listed yet (the composer's `@`). */
  loadThreadServers(): void;
  /** The composer's `@` choices among the open thread's servers' resources and templates. */
  mentionOptions(query: string): MentionOption[];
  /** Reads a resource and attaches it to the message being written; follows its updates until it is sent. */
  attach(serverId: string, uri: string, name?: string): Promise<void>;
  /** Suggestions for a template argument (`completion/complete`); empty when there are none or the server fails. */
  complete(
    serverId: string,
    uriTemplate: string,
    argument: { name: string; value: string },
    context: Readonly<Record<string, string>>,
  ): Promise<string[]>;
  /** A template of a listed server, by its URI template. */
  templateOf(serverId: string, uriTemplate: string): ResourceTemplateInfo | undefined;
  /** Attaches the resource a template names with these values. */
  attachTemplate(serverId: string, uriTemplate: string, values: Readonly<Record<string, string>>): Promise<void>;
  dispose(): void;
}

export interface ResourceDeps {
  readonly resources: ServerResources;
  readonly registry: Pick<Registry, 'get' | 'subscribe'>;
  readonly chat: ChatStore;
  readonly draft: AttachmentDraftHandle;
  /** Where a failed (un)subscription is reported: the attachment keeps what was read. */
  readonly logger?: Logger;
  /** Counts a read (not a completion) as a request for the open thread, so its server may ask the person there meanwhile. */
  readonly countAsCall?: CountAsCall;
}

const MAX_OPTIONS = 30;
const squash = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
const why = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The bytes of a read resource's content item (text as UTF-8, a blob decoded). */
function bytesOf(item: ResourceContentItem): Uint8Array {
  if (item.text !== undefined) return new TextEncoder().encode(item.text);
  const binary = atob(item.blob ?? '');
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** A name for a resource's content: the listed name, else the URI's last segment. */
function nameOf(uri: string, listed?: string): string {
  if (listed) return listed;
  const last = uri.split(/[/:]/).filter(Boolean).at(-1);
  return last ? decodeURIComponent(last) : uri;
}

/**
 * A name for a resource a template named: the template's title or name (else the last fixed segment of its URI) with
 * the values filled in, "Dynamic Text Resource (resourceId: 7)", where the URI's last segment alone would say "7".
 */
function templatedName(
  template: ResourceTemplateInfo | undefined,
  uriTemplate: string,
  values: Readonly<Record<string, string>>,
): string {
  const fixed = uriTemplate
    .split(/[/:]/)
    .filter((segment) => segment && !segment.includes('{'))
    .at(-1);
  const base = template?.title ?? template?.name ?? fixed ?? uriTemplate;
  const filled = Object.entries(values).filter(([, value]) => value !== '');
  return filled.length === 0 ? base : `${base} (${filled.map(([key, value]) => `${key}: ${value}`).join(', ')})`;
}

/** Resources of the thread's servers as attachments: listed, read, completed and followed while not yet sent. */
export function createResourceActions(deps: ResourceDeps): ResourceActions {
  const logger = deps.logger ?? silentLogger;
  const countAsCall = deps.countAsCall ?? UNCOUNTED;
  const openThreadId = () => deps.chat.getState().activeThreadId;
  const store = createStore<ResourceBrowserState>(() => ({ listings: {}, loading: {} }));
  /** Unsubscribe functions of attached resources, by attachment id. */
  const followed = new Map<string, () => Promise<void>>();
  const serverName = (id: string) => deps.registry.get(id)?.config.name ?? id;
  /** Listings asked for per server: an older one answering last does not replace a newer one. */
  const asked = new Map<string, number>();

  const offerFor = async (
    serverId: string,
    uri: string,
    name: string | undefined,
    replaces?: string,
  ): Promise<OfferedAttachment[]> => {
    const items = await deps.resources.read(serverId, uri);
    const source = { type: 'resource' as const, serverId, serverName: serverName(serverId), uri };
    return items.map((item, i) => {
      const label = nameOf(item.uri, items.length === 1 ? name : undefined);
      const mimeType = item.mimeType ?? (item.text !== undefined ? 'text/plain' : 'application/octet-stream');
      return {
        name: label,
        mimeType,
        bytes: bytesOf(item),
        source: { ...source, uri: item.uri },
        ...(replaces && i === 0 ? { replaces } : {}),
      };
    });
  };

  // An attachment removed or sent stops following its resource (one kept in another thread's draft is followed on).
  const pendingIds = () => new Set(allPendingItems(deps.draft.store).map((i) => i.ref.id));
  const stopWatching = deps.draft.store.subscribe(() => {
    const ids = pendingIds();
    for (const [id, unsubscribe] of followed)
      if (!ids.has(id)) {
        followed.delete(id);
        void unsubscribe().catch(logFailure(logger, 'Unsubscribing from an attached resource failed'));
      }
  });

  const follow = async (serverId: string, uri: string, name: string | undefined, attachmentId: string) => {
    const onUpdated = () => {
      if (!followed.has(attachmentId)) return;
      // Into the draft that holds it, the open thread's or one kept with another thread.
      const holder = () => boxHolding(deps.draft.store, (i) => i.ref.id === attachmentId);
      offerFor(serverId, uri, name, attachmentId)
        .then((offered) => {
          const box = holder();
          if (box) offerAttachments(deps.draft, offered.slice(0, 1), box);
        })
        .catch((error: unknown) =>
          holder()?.setState({
            errors: [`${serverName(serverId)} changed ${uri}, but reading it again failed: ${why(error)}`],
          }),
        );
    };
    const unsubscribe = await deps.resources
      .subscribe(serverId, uri, onUpdated)
      .catch(logFailure(logger, 'Subscribing to an attached resource failed', { serverId, uri }));
    if (!unsubscribe) return;
    if (pendingIds().has(attachmentId)) followed.set(attachmentId, unsubscribe);
    else
      await unsubscribe().catch(
        logFailure(logger, 'Unsubscribing from an attached resource failed', { serverId, uri }),
      );
  };

  const threadServerIds = () => {
    const { threads, activeThreadId } = deps.chat.getState();
    const ids = threads.find((t) => t.id === activeThreadId)?.enabledServerIds ?? [];
    return ids.filter((id) => deps.registry.get(id)?.config.enabled);
  };

  const actions: ResourceActions = {
    store,
    async load(serverId) {
      const ask = (asked.get(serverId) ?? 0) + 1;
      asked.set(serverId, ask);
      store.setState({ loading: { ...store.getState().loading, [serverId]: true } });
      const listing = await deps.resources.list(serverId);
      if (asked.get(serverId) !== ask) return;
      store.setState({
        listings: { ...store.getState().listings, [serverId]: listing },
        loading: { ...store.getState().loading, [serverId]: false },
      });
    },
    loadThreadServers() {
      const { listings, loading } = store.getState();
      for (const id of threadServerIds()) if (!listings[id] && !loading[id]) void actions.load(id);
    },
    mentionOptions(query) {
      const q = squash(query);
      const { listings } = store.getState();
      const options = threadServerIds().flatMap((id): MentionOption[] => {
        const listing = listings[id];
        if (!listing) return [];
        return [
          // An MCP App's page (ui://) is for this app to show beside its tool's result, not content for the model.
          ...listing.resources
            .filter((r) => !r.uri.startsWith(APP_PAGE_SCHEME))
            .map((r) => ({
              kind: 'resource' as const,
              key: `resource:${id}:${r.uri}`,
              label: r.title ?? r.name,
              detail: `resource · ${listing.serverName} · ${r.uri}`,
              insert: '',
              resource: { serverId: id, uri: r.uri, name: r.name },
            })),
          ...listing.templates.map((t) => ({
            kind: 'template' as const,
            key: `template:${id}:${t.uriTemplate}`,
            label: t.title ?? t.name,
            detail: `template · ${listing.serverName} · ${t.uriTemplate}`,
            insert: '',
            resource: { serverId: id, uri: t.uriTemplate, name: t.name },
          })),
        ];
      });
      return options
        .filter((o) => !q || squash(o.label).includes(q) || squash(o.detail).includes(q))
        .slice(0, MAX_OPTIONS);
    },
    async attach(serverId, uri, name) {
      // The server may answer after the person opened another thread: what it sends goes to the thread that asked.
      const box = threadBox(deps.draft.store);
      let offered: OfferedAttachment[];
      try {
        offered = await countAsCall(serverId, openThreadId(), () => offerFor(serverId, uri, name));
      } catch (error) {
        box.setState({ errors: [`${serverName(serverId)} could not read ${uri}: ${why(error)}`] });
        return;
      }
      const before = new Set(box.getState().items.map((i) => i.ref.id));
      offerAttachments(deps.draft, offered, box);
      const added = box.getState().items.find((i) => !before.has(i.ref.id));
      // One subscription per attached resource (its first content item is the one replaced on an update).
      if (added) await follow(serverId, uri, name, added.ref.id);
    },
    async complete(serverId, uriTemplate, argument, context) {
      // Not counted as the thread's request: sent at each key, a question during it would stack up forms.
      return deps.resources.complete(serverId, uriTemplate, argument, context).catch(() => []);
    },
    templateOf(serverId, uriTemplate) {
      return store.getState().listings[serverId]?.templates.find((t) => t.uriTemplate === uriTemplate);
    },
    async attachTemplate(serverId, uriTemplate, values) {
      let uri: string;
      try {
        uri = expandTemplate(uriTemplate, values);
      } catch (error) {
        deps.draft.store.setState({ errors: [`${uriTemplate} could not be filled in: ${why(error)}`] });
        return;
      }
      await actions.attach(
        serverId,
        uri,
        templatedName(actions.templateOf(serverId, uriTemplate), uriTemplate, values),
      );
    },
    dispose() {
      stopWatching();
      stopListening();
      for (const unsubscribe of followed.values())
        void unsubscribe().catch(logFailure(logger, 'Unsubscribing from an attached resource failed'));
      followed.clear();
    },
  };
  // A listed server that says its resources changed (resources/list_changed) is listed again: the `@` list and the
  // Resources panel show what it has now.
  const stopListening = deps.registry.subscribe((event) => {
    if (event.type === 'resources' && store.getState().listings[event.serverId]) void actions.load(event.serverId);
  });
  return actions;
}
