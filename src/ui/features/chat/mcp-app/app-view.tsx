import { useContext, useEffect, useRef, useState } from 'react';
import type { ShownResult } from '../../../../domain/tool-display';
import type { AppOfTool } from '../../../../stores/mcp-apps';
import { ToolResultView } from '../tool-result-view';
import { ThreadIdContext } from '../thread-id-context';
import { McpAppsContext } from './apps-context';
import { FullscreenAsk } from './fullscreen-ask';
import { releaseFullscreen, takeFullscreen, useIsFullscreen } from './fullscreen-owner';
import { useIsNearView, usePageTheme, type AppTheme } from './host-context';
import './mcp-app.css';

type DisplayMode = 'inline' | 'fullscreen';
type Loaded = { readonly html: string; readonly prefersBorder?: boolean };
type Frame = ReturnType<NonNullable<React.ContextType<typeof McpAppsContext>>['mount']>;

const INLINE_MAX_HEIGHT = 600;
const TOO_MANY = 'The app sent too many requests; the rest were refused.';

export interface AppViewProps {
  readonly app: AppOfTool;
  readonly toolUseId: string;
  readonly tool: string;
  readonly input: Record<string, unknown>;
  readonly shown: ShownResult;
  readonly isError: boolean;
}

const hostContextOf = (theme: AppTheme, mode: DisplayMode, width: number) => ({
  theme,
  displayMode: mode,
  availableDisplayModes: ['inline', 'fullscreen'] as DisplayMode[],
  containerDimensions:
    mode === 'fullscreen'
      ? { width: window.innerWidth, height: window.innerHeight }
      : { width: Math.round(width), maxHeight: INLINE_MAX_HEIGHT },
  platform: 'web' as const,
  locale: navigator.language,
});

/**
 * A tool's MCP App (issue #21) in its card: the app's document in the sandbox, given the stored input and result. It is
 * torn down when the card is far out of view and comes back from the stored result; if it cannot be shown, the plain
 * result shows with a one-line notice.
 */
export function AppView({ app, toolUseId, tool, input, shown, isError }: AppViewProps) {
  const actions = useContext(McpAppsContext);
  const threadId = useContext(ThreadIdContext);
  const [loaded, setLoaded] = useState<Loaded>();
  const [failure, setFailure] = useState<string>();
  const [notice, setNotice] = useState<string>();
  // Full screen only by the person's click in the page (the app may only ask); one app at a time; never on re-mount.
  const isFull = useIsFullscreen(toolUseId);
  const mode: DisplayMode = isFull ? 'fullscreen' : 'inline';
  const [isAsked, setIsAsked] = useState(false);
  const exitButton = useRef<HTMLButtonElement>(null);
  const [height, setHeight] = useState(120);
  const [box, setBox] = useState<HTMLElement | null>(null);
  const holder = useRef<HTMLDivElement>(null);
  const frame = useRef<Frame | undefined>(undefined);
  const isNear = useIsNearView(box);
  const theme = usePageTheme();
  // Read when the frame mounts; later changes reach the app as host-context changes, never by a remount.
  const latest = useRef({ theme, mode, input, shown, isError });
  useEffect(() => {
    latest.current = { theme, mode, input, shown, isError };
  });

  useEffect(() => {
    if (!actions) return;
    const controller = new AbortController();
    void actions.load(app, controller.signal).then((resource) => {
      if (controller.signal.aborted) return;
      if (resource.ok) setLoaded({ html: resource.html, ...(resource.prefersBorder ? { prefersBorder: true } : {}) });
      else setFailure(`The app could not be shown: ${resource.message}`);
    });
    return () => controller.abort();
  }, [actions, app]);

  useEffect(() => {
    const container = holder.current;
    if (!actions || !loaded || !isNear || failure || !container) return;
    let pendingHeight: number | undefined;
    const limited = <T,>(run: () => T): T => {
      if (!actions.mayRequest(toolUseId)) {
        setNotice(TOO_MANY);
        throw new Error('Too many requests: refused by the host.');
      }
      // Taken again once the limit lifts: the notice of refusals goes.
      setNotice((shown) => (shown === TOO_MANY ? undefined : shown));
      return run();
    };
    const now = latest.current;
    // The app's requests belong to this card's thread, and end with this frame (pending ones are declined).
    const torn = new AbortController();
    const from = (): { threadId: string; signal: AbortSignal } => {
      if (!threadId) throw new Error('The app is not shown in a thread.');
      return { threadId, signal: torn.signal };
    };
    const mounted = actions.mount(container, {
      html: loaded.html,
      title: `App of ${app.serverName}: ${tool}`,
      toolInput: now.input,
      toolResult: {
        content: now.shown.content,
        ...(isRecord(now.shown.structuredContent) ? { structuredContent: now.shown.structuredContent } : {}),
        ...(now.isError ? { isError: true } : {}),
      },
      hostContext: hostContextOf(now.theme, now.mode, container.clientWidth),
      onFailure: (message) => setFailure(message),
      requests: {
        callTool: (name, args, signal) => limited(() => actions.callTool(app, name, args, signal, from())),
        sendMessage: (text) => limited(() => actions.sendMessage(app, text, from())),
        openLink: (url) => limited(() => actions.openLink(app, url, from())),
        updateModelContext: (text) =>
          limited(() =>
            threadId
              ? actions.updateContext(threadId, app, toolUseId, text)
              : Promise.reject(new Error('The app is not shown in a thread.')),
          ),
        requestDisplayMode: (requested) =>
          limited(() => {
            // Leaving full screen is granted; filling the window only shows the person a prompt on the card.
            if (requested !== 'fullscreen') {
              setIsAsked(false);
              releaseFullscreen(toolUseId);
              return 'inline';
            }
            if (latest.current.mode === 'fullscreen') return 'fullscreen';
            setIsAsked(true);
            return 'inline';
          }),
        resize: (next) => {
          // Coalesced to one layout per frame: an app that floods size changes cannot hold the page up.
          if (pendingHeight === undefined) requestAnimationFrame(() => setHeight(pendingHeight ?? 0));
          pendingHeight = Math.ceil(next);
        },
      },
    });
    frame.current = mounted;
    return () => {
      torn.abort();
      frame.current = undefined;
      void mounted.close();
      pendingHeight = undefined;
    };
  }, [actions, app, loaded, isNear, failure, toolUseId, tool, threadId]);

  // The container's width, followed: a narrower column or a rotated phone reaches the app as a host-context change.
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const container = holder.current;
    if (!container || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.round(entry?.contentRect.width ?? 0)));
    observer.observe(container);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const container = holder.current;
    frame.current?.setHostContext(hostContextOf(theme, mode, width || (container?.clientWidth ?? 0)));
  }, [theme, mode, width]);

  // The page takes the keyboard when the app fills the window, so Escape reaches it (not from inside the app's frame).
  useEffect(() => {
    if (!isFull) return;
    exitButton.current?.focus();
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && releaseFullscreen(toolUseId);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [isFull, toolUseId]);
  useEffect(() => () => releaseFullscreen(toolUseId), [toolUseId]);

  if (!actions) return null;
  if (failure)
    return (
      <div className="mcp-app-fallback">
        <p className="mcp-app-notice" role="status">
          {failure}
        </p>
        <ToolResultView shown={shown} serverId={app.serverId} tool={tool} />
      </div>
    );
  return (
    <section
      className={`mcp-app${isFull ? ' mcp-app-fullscreen' : ''}${loaded?.prefersBorder ? ' mcp-app-border' : ''}`}
      aria-label={`App of ${app.serverName}`}
      ref={setBox}
    >
      {/* Outside the app's frame: in full screen it stays on top, naming who fills the window and how to leave. Inline,
          its one line of fixed height is where the app's ask to fill the screen shows: the frame never moves for it. */}
      <div
        className="mcp-app-bar"
        role={isFull ? 'toolbar' : undefined}
        aria-label={isFull ? 'Full screen app' : undefined}
      >
        {isAsked && !isFull ? (
          <FullscreenAsk
            onAllow={() => {
              setIsAsked(false);
              takeFullscreen(toolUseId);
            }}
            onDismiss={() => setIsAsked(false)}
          />
        ) : (
          <span className={isFull ? undefined : 'muted'}>
            App of {app.serverName}
            {isFull && (
              <>
                {' '}
                <code className="origin">{app.origin}</code>
              </>
            )}
          </span>
        )}
        <button
          type="button"
          className={isFull ? undefined : 'link-button'}
          ref={exitButton}
          onClick={() => {
            setIsAsked(false);
            if (isFull) releaseFullscreen(toolUseId);
            else takeFullscreen(toolUseId);
          }}
        >
          {isFull ? 'Exit full screen' : 'Full screen'}
        </button>
      </div>
      {notice && (
        <p className="mcp-app-notice" role="status">
          {notice}
        </p>
      )}
      <div
        className="mcp-app-holder"
        ref={holder}
        style={isFull ? undefined : { height: `${Math.min(Math.max(height, 40), INLINE_MAX_HEIGHT)}px` }}
      >
        {!loaded && <p className="muted">Loading the app…</p>}
      </div>
    </section>
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
