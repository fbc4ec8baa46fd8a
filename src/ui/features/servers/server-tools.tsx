import { useState } from 'react';
import type { ServerActions, ServerView, ToolView } from '../../../stores/servers-store';

/**
 * A server's tools: a switch each, and the description the model gets (the person may write their own). For a
 * server the app provides they are the person's own, kept in their profile; its connection stays the app's.
 */
export function ServerTools({ server, actions }: { server: ServerView; actions: ServerActions }) {
  const [editing, setEditing] = useState<string>();
  // The rows are in the page only while the list is open (or a description is being edited in it, so closing the
  // list keeps the draft): a closed list of thousands of tools (a large server, or twenty of them) would otherwise
  // be built on opening the Servers panel and redrawn on every registry event while it is open.
  const [isOpen, setOpen] = useState(false);
  const isAppServer = server.scope === 'app';
  if (server.tools.length === 0 && server.toolNotes.length === 0) return null;
  const enabledCount = server.tools.filter((t) => t.isEnabled).length;
  return (
    <details className="server-tools" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        Tools ({enabledCount} of {server.tools.length} on{isAppServer ? ' for you' : ''})
        {server.toolNotes.length > 0 && (
          <span className="badge">{server.toolNotes.length === 1 ? '1 note' : `${server.toolNotes.length} notes`}</span>
        )}
      </summary>
      {(isOpen || editing !== undefined) && (
        <ToolRows server={server} actions={actions} editing={editing} setEditing={setEditing} />
      )}
    </details>
  );
}

/** Rows shown at first and added by each "Show more": opening a list of thousands builds only these. */
const ROWS_PER_PAGE = 100;
/** From this many tools the list has a filter box. */
const FILTER_FROM = 20;

interface RowProps {
  server: ServerView;
  actions: ServerActions;
  editing: string | undefined;
  setEditing: (name: string | undefined) => void;
}

/** The tools whose name or description (the person's or the server's) holds `filter`, ignoring case. */
function matchingTools(tools: readonly ToolView[], filter: string): readonly ToolView[] {
  const wanted = filter.trim().toLowerCase();
  if (wanted === '') return tools;
  return tools.filter((tool) =>
    [tool.name, tool.description ?? '', tool.serverDescription].some((text) => text.toLowerCase().includes(wanted)),
  );
}

function ToolRows({ server, actions, editing, setEditing }: RowProps) {
  const [filter, setFilter] = useState('');
  const [shown, setShown] = useState(ROWS_PER_PAGE);
  const isAppServer = server.scope === 'app';
  const matching = matchingTools(server.tools, filter);
  const visible = matching.slice(0, shown);
  // The description being edited stays in the page whatever the filter, so its draft is kept.
  const edited = server.tools.find((tool) => tool.name === editing);
  if (edited && !visible.includes(edited)) visible.push(edited);
  const more = matching.length - Math.min(shown, matching.length);
  return (
    <>
      {server.toolNotes.length > 0 && (
        <ul className="tool-notes" aria-label={`Notes on the tools of ${server.name}`}>
          {server.toolNotes.map((note) => (
            <li key={note} className="field-hint">
              {note}
            </li>
          ))}
        </ul>
      )}
      {isAppServer && (
        <p className="muted field-hint">
          For you: these switches and descriptions apply only to your profile, in every thread. The app sets this
          server&apos;s address and sign-in.
        </p>
      )}
      <p className="muted field-hint">
        A switch turns a tool on or off for the model; &ldquo;callable from code&rdquo; lets the programs the model
        writes (execute_code) call it too.
      </p>
      {server.tools.length >= FILTER_FROM && (
        <input
          type="search"
          className="tool-filter"
          aria-label={`Filter the tools of ${server.name}`}
          placeholder="Filter by name or description"
          value={filter}
          onChange={(event) => {
            setFilter(event.target.value);
            setShown(ROWS_PER_PAGE);
          }}
        />
      )}
      {matching.length === 0 && (
        <p className="muted field-hint" role="status">
          No tool of {server.name} has &ldquo;{filter.trim()}&rdquo; in its name or description.
        </p>
      )}
      <ul className="tool-list" aria-label={`Tools of ${server.name}`}>
        {visible.map((tool) => (
          <ToolRow
            key={tool.name}
            tool={tool}
            server={server}
            actions={actions}
            editing={editing}
            setEditing={setEditing}
          />
        ))}
      </ul>
      {more > 0 && (
        <p className="muted field-hint tool-more">
          Showing {shown} of {matching.length} {filter.trim() === '' ? 'tools' : 'matching tools'}.{' '}
          <button type="button" className="link-button" onClick={() => setShown((n) => n + ROWS_PER_PAGE)}>
            Show {Math.min(more, ROWS_PER_PAGE)} more
          </button>
        </p>
      )}
    </>
  );
}

function ToolRow({ tool, server, actions, editing, setEditing }: RowProps & { tool: ToolView }) {
  const isAppServer = server.scope === 'app';
  return (
    <li className={tool.isEnabled ? 'tool-row' : 'tool-row tool-off'}>
      <label className="switch-row tool-switch">
        <input
          type="checkbox"
          role="switch"
          aria-label={tool.name}
          aria-checked={tool.isEnabled}
          checked={tool.isEnabled}
          disabled={tool.isOffByApp === true}
          onChange={() => void actions.changeTool(server.id, tool.name, { enabled: !tool.isEnabled })}
        />
        <code>{tool.name}</code>
        {tool.isOffByApp ? (
          <span className="muted">off for everyone: switched off by the app</span>
        ) : (
          !tool.isEnabled && (
            <span className="muted">{isAppServer ? 'off for you' : 'off'}: the model never sees it</span>
          )
        )}
      </label>
      <label className="code-switch" title="The model's code (execute_code) may call this tool too">
        <input
          type="checkbox"
          aria-label={`${tool.name} from code`}
          checked={tool.isKeptFromCode !== true}
          disabled={tool.isNotFromCodeByApp === true || !tool.isEnabled}
          onChange={() =>
            void actions.changeTool(server.id, tool.name, { callableFromCode: tool.isKeptFromCode === true })
          }
        />
        <span className="muted">callable from code</span>
      </label>
      {editing === tool.name ? (
        <DescriptionEditor
          tool={tool}
          isAppServer={isAppServer}
          onCancel={() => setEditing(undefined)}
          onSave={async (description) => {
            // A description that was not stored stays in the editor, with the reason.
            const problem = await actions.changeTool(server.id, tool.name, { description });
            if (!problem) setEditing(undefined);
            return problem;
          }}
        />
      ) : (
        <div className="tool-description">
          <p>
            {tool.description ?? tool.serverDescription}
            {tool.description !== undefined && <span className="badge">your description</span>}
          </p>
          <button
            type="button"
            className="link-button"
            aria-label={`Edit description of ${tool.name}`}
            onClick={() => setEditing(tool.name)}
          >
            Edit description
          </button>
        </div>
      )}
    </li>
  );
}

function DescriptionEditor({
  tool,
  isAppServer,
  onSave,
  onCancel,
}: {
  tool: ToolView;
  isAppServer: boolean;
  onSave: (description: string) => Promise<string | undefined>;
  onCancel: () => void;
}) {
  const [text, setText] = useState(tool.description ?? tool.serverDescription);
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const save = async (description: string) => {
    setBusy(true);
    setError(await onSave(description));
    setBusy(false);
  };
  return (
    <div className="description-editor">
      <textarea
        aria-label={`Description for ${tool.name}`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        rows={3}
        maxLength={4000}
        aria-invalid={error ? true : undefined}
      />
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="server-form-actions">
        <button type="button" disabled={isBusy} onClick={() => void save(text === tool.serverDescription ? '' : text)}>
          Save description
        </button>
        {tool.description !== undefined && (
          <button type="button" className="secondary" disabled={isBusy} onClick={() => void save('')}>
            {isAppServer ? 'Use the default description' : <>Use the server&apos;s description</>}
          </button>
        )}
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {tool.description !== undefined && (
        <p className="muted field-hint">
          {isAppServer ? 'Without yours, the model gets' : 'The server says'}:{' '}
          {tool.serverDescription || '(no description)'}
        </p>
      )}
    </div>
  );
}
