import { exportThreadJson, exportThreadMarkdown } from '../agent/export-thread';
import { fileBaseFromTitle } from '../domain/file-name';
import type { ResourceReading } from '../domain/tool-display';
import type { TurnRunnerDeps } from '../turns/turn-runner';
import type { ChatStore } from './chat-store';
import { mentionOptions, type MentionOption } from './mention-options';
import { UNCOUNTED, type CountAsCall } from './server-calls';

/** What the open thread's view reads: the `@` choices, a resource, an attachment's bytes, the thread as a file. */
export interface OpenThreadReads {
  /** The composer's `@` choices: the open thread's enabled servers and their tools, filtered by `query`. */
  mentionOptions(query: string): MentionOption[];
  /**
   * Reads a resource of a server (a resource link in a tool result), as a request for the open thread (its server may
   * ask the person there meanwhile); never throws.
   */
  readResource: (serverId: string, uri: string) => Promise<ResourceReading>;
  /** The bytes of a sent message's attachment; undefined when they are no longer stored. */
  readAttachment: (id: string) => Promise<Blob | undefined>;
  /** The open thread as a file to download (JSON or Markdown), with its trace. */
  exportThread(
    format: 'json' | 'markdown',
  ): { readonly name: string; readonly type: string; readonly text: string } | undefined;
}

export function openThreadReads(
  store: ChatStore,
  deps: TurnRunnerDeps,
  countAsCall: CountAsCall = UNCOUNTED,
): OpenThreadReads {
  return {
    mentionOptions(query) {
      const { threads, activeThreadId } = store.getState();
      const enabled = threads.find((t) => t.id === activeThreadId)?.enabledServerIds ?? [];
      const servers = enabled.flatMap((id) => {
        const server = deps.registry.get(id);
        return server?.config.enabled ? [{ id, name: server.config.name }] : [];
      });
      return mentionOptions(servers, deps.registry.tools(servers.map((s) => s.id)), query);
    },
    readResource: (serverId, uri) =>
      countAsCall(serverId, store.getState().activeThreadId, () => deps.registry.readResource(serverId, uri)),
    readAttachment: (id) => deps.storage.attachments.get(id),
    exportThread(format) {
      const { threads, activeThreadId, messages } = store.getState();
      const thread = threads.find((t) => t.id === activeThreadId);
      if (!thread) return undefined;
      const base = fileBaseFromTitle(thread.title, 60, 'thread');
      return format === 'json'
        ? { name: `${base}.json`, type: 'application/json', text: exportThreadJson(thread, messages) }
        : { name: `${base}.md`, type: 'text/markdown', text: exportThreadMarkdown(thread, messages) };
    },
  };
}
