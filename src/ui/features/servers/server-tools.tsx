import { useEffect, useRef, useState } from 'react';
import type { ServerActions, ServerView, ToolView } from '../../../stores/servers-store';
import { ListFilter, ShowMore, useFilteredPage } from '../../components/filtered-list';

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
    <details className="server-tools" open={isOpen} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        Tools ({enabledCount} of {server.tools.length} on{isAppServer ? ' for you' : ''})
        {server.toolNotes.length > 0 && ' '}
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

interface RowProps {
  server: ServerView;
  actions: ServerActions;
  editing: string | undefined;
  setEditing: (name: string | undefined) => void;
}

function ToolRows({ server, actions, editing, setEditing }: RowProps) {
  const isAppServer = server.scope === 'app';
  // The description being edited stays in the page whatever the filter, so its draft is kept.
  const list = useRef<HTMLUListElement>(null);
  const page = useFilteredPage(server.tools, (tool) => [tool.name, tool.description ?? '', tool.serverDescription], {
    keep: (tool) => tool.name === editing,
  });
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
      <ListFilter
        page={page}
        total={server.tools.length}
        label={`Filter the tools of ${server.name}`}
        placeholder="Filter by name or description"
        noun="tools"
        noMatch={(filter) => `No tool of ${server.name} has “${filter}” in its name or description.`}
      />
      <ul ref={list} className="tool-list" aria-label={`Tools of ${server.name}`}>
        {page.visible.map((tool) => (
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
      <ShowMore page={page} noun="tools" list={list} />
    </>
  );
}

function ToolRow({ tool, server, actions, editing, setEditing }: RowProps & { tool: ToolView }) {
  const isAppServer = server.scope === 'app';
  const row = useRef<HTMLLIElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const isEditing = editing === tool.name;
  const wasEditing = useRef(isEditing);
  useEffect(() => {
    // The editor closed (saved, cancelled, reset) with the focus in it: back to "Edit description", not the page.
    const focused = document.activeElement;
    if (wasEditing.current && !isEditing && (focused === document.body || row.current?.contains(focused)))
      editButton.current?.focus();
    wasEditing.current = isEditing;
  }, [isEditing]);
  return (
    <li ref={row} className={tool.isEnabled ? 'tool-row' : 'tool-row tool-off'}>
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
      {isEditing ? (
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
            ref={editButton}
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
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => box.current?.focus(), []); // Opened with "Edit description": the focus goes into the text.
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
        ref={box}
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
