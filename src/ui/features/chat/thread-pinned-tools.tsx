import { useId, useRef, useState } from 'react';
import type { ThreadConfig } from '../../../domain/thread-config';
import type { ToolRef } from '../../../domain/tool-catalog';
import type { Deferral } from '../../../domain/tool-search-settings';
import { neverDeferNote, waitingPins, type ThreadToolChoiceActions } from '../../../stores/thread-tool-choices';
import type { ServerView } from '../../../stores/servers-store';
import { ListFilter, ShowMore, useFilteredPage } from '../../components/filtered-list';

const DEFERRALS: readonly Deferral[] = ['auto', 'always', 'never'];
const isDeferral = (value: string): value is Deferral => (DEFERRALS as readonly string[]).includes(value);

/**
 * The thread's pinned tools (offered to the model in every call of the thread, even when the others wait behind tool
 * search) and its own deferral. Each choice applies at once; only tools of the thread's enabled servers are listed.
 */
export function ThreadPinnedTools({
  thread,
  servers,
  actions,
}: {
  thread: ThreadConfig;
  servers: readonly ServerView[];
  actions: ThreadToolChoiceActions;
}) {
  const [error, setError] = useState<string>();
  // A choice shows at once; it is dropped (the stored one shows) once stored or refused.
  const [pendingPins, setPendingPins] = useState<Readonly<Record<string, boolean>>>({});
  const [pendingDeferral, setPendingDeferral] = useState<string>();
  const [isOpen, setOpen] = useState(false);
  const deferralId = useId();
  const enabled = servers.filter((s) => thread.enabledServerIds.includes(s.id));
  const keyOf = (ref: ToolRef) => JSON.stringify([ref.serverId, ref.toolName]);
  const isPinned = (ref: ToolRef) =>
    pendingPins[keyOf(ref)] ??
    thread.pinnedTools.some((p) => p.serverId === ref.serverId && p.toolName === ref.toolName);
  const pin = async (ref: ToolRef, isOn: boolean) => {
    setPendingPins((pins) => ({ ...pins, [keyOf(ref)]: isOn }));
    setError(await actions.setPinnedTool(thread.id, ref, isOn));
    setPendingPins(({ [keyOf(ref)]: _done, ...rest }) => rest);
  };
  const defer = async (value: string) => {
    setPendingDeferral(value);
    setError(await actions.setThreadDeferral(thread.id, isDeferral(value) ? value : undefined));
    setPendingDeferral(undefined);
  };
  const deferral = pendingDeferral ?? thread.toolSearch?.deferral ?? '';
  // A server set to "Always defer" stays behind tool search even with Never: its tools are not among those sent.
  const alwaysDeferred = enabled.filter((s) => s.config.deferTools === 'always');
  const toolCount = enabled.reduce(
    (count, s) => count + (s.config.deferTools === 'always' ? 0 : s.tools.filter((t) => t.isEnabled).length),
    0,
  );
  const neverNote =
    deferral === 'never'
      ? neverDeferNote(
          toolCount,
          alwaysDeferred.map((s) => s.name),
        )
      : undefined;
  const pinnedCount = enabled.reduce(
    (count, s) => count + s.tools.filter((t) => t.isEnabled && isPinned({ serverId: s.id, toolName: t.name })).length,
    0,
  );
  const waiting = waitingPins(thread, servers);
  return (
    <details
      className="thread-settings pinned-tools"
      open={isOpen}
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary>
        Deferral and pinned tools ({pinnedCount}){waiting.length > 0 ? ` · ${waiting.length} more not sent now` : ''}
      </summary>
      <label htmlFor={deferralId}>Deferral in this thread</label>
      <select
        id={deferralId}
        value={deferral}
        onChange={(e) => void defer(e.target.value)}
        aria-describedby={neverNote ? `${deferralId}-never` : undefined}
      >
        <option value="">As in Settings</option>
        <option value="auto">Auto (when the tools are many or large)</option>
        <option value="always">Always (tools wait behind tool search)</option>
        <option value="never">Never (every tool in every call)</option>
      </select>
      {/* Always in the page, so a screen reader hears the note when it is filled in. */}
      <p id={`${deferralId}-never`} className="warning" role="status">
        {neverNote ?? ''}
      </p>
      <p className="muted">
        A pinned tool is offered to the model in every call of this thread, even when tools are deferred.
      </p>
      {waiting.length > 0 && (
        <p className="muted">
          Kept, but not sent while their server is off in this thread, or the tool is switched off or no longer listed:{' '}
          {waiting.join(', ')}.
        </p>
      )}
      {enabled.length === 0 && <p className="muted">Turn on a server for this thread to pin its tools.</p>}
      {/* The rows are in the page only while the section is open: the thread menu is drawn with every change. */}
      {isOpen && enabled.map((server) => <ServerPins key={server.id} server={server} isPinned={isPinned} pin={pin} />)}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </details>
  );
}

/**
 * One enabled server's tools to pin: a page at a time, with a filter for a long list. Without a filter the pinned
 * ones lead the list; a tool pinned or unpinned here stays in its place until the filter changes.
 */
function ServerPins({
  server,
  isPinned,
  pin,
}: {
  server: ServerView;
  isPinned: (ref: ToolRef) => boolean;
  pin: (ref: ToolRef, isOn: boolean) => Promise<void>;
}) {
  const tools = server.tools.filter((t) => t.isEnabled);
  const pinnedNow = () =>
    new Set(tools.filter((t) => isPinned({ serverId: server.id, toolName: t.name })).map((t) => t.name));
  // The pinned tools lead: those pinned when the section opened or the filter last changed, and those pinned since
  // elsewhere (another tab, a tool listed late). One the person pins or unpins here keeps its row under the pointer.
  const [leading, setLeading] = useState(pinnedNow);
  const [toggledHere, setToggledHere] = useState<ReadonlySet<string>>(new Set());
  const list = useRef<HTMLUListElement>(null);
  const page = useFilteredPage(tools, (tool) => [tool.name, tool.description ?? tool.serverDescription], {
    keep: (tool, filter) =>
      filter === '' &&
      (leading.has(tool.name) ||
        (!toggledHere.has(tool.name) && isPinned({ serverId: server.id, toolName: tool.name }))),
    keptFirst: true,
    onFilterChange: () => {
      setLeading(pinnedNow());
      setToggledHere(new Set());
    },
  });
  return (
    <fieldset>
      <legend>{server.name}</legend>
      {tools.length === 0 && <p className="muted">No tools listed yet.</p>}
      <ListFilter
        page={page}
        total={tools.length}
        label={`Filter the tools of ${server.name} to pin`}
        placeholder="Filter by name or description"
        noun="tools"
        noMatch={(filter) => `No tool of ${server.name} has “${filter}” in its name or description.`}
      />
      <ul ref={list} className="pin-list" aria-label={`Tools of ${server.name} to pin`}>
        {page.visible.map((tool) => {
          const ref = { serverId: server.id, toolName: tool.name };
          const description = tool.description ?? tool.serverDescription;
          return (
            <li key={tool.name}>
              <label className="switch-row">
                <input
                  type="checkbox"
                  aria-label={`Pin ${tool.name} (${server.name})`}
                  checked={isPinned(ref)}
                  onChange={(e) => {
                    setToggledHere((names) => new Set(names).add(tool.name));
                    void pin(ref, e.target.checked);
                  }}
                />
                <code>{tool.name}</code>
                {description && <span className="muted pin-description">{description}</span>}
              </label>
            </li>
          );
        })}
      </ul>
      <ShowMore page={page} noun="tools" list={list} />
    </fieldset>
  );
}
