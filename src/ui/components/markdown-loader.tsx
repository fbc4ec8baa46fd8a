// The markdown renderer's chunk, fetched once: by the first message shown, or beforehand by the thread's chunk. Kept
// apart from markdown.tsx so that the first screen can start the fetch without holding any of the rendering code.

/** Until the renderer has loaded (or if it cannot be), the text shows as it is: plain, inert text. */
export function PlainText({ text }: { text: string }) {
  return (
    <div className="markdown">
      <p className="markdown-plain">{text}</p>
    </div>
  );
}

/** What the renderer takes: the text, and whether it is still streaming (then it changes often: not worth keeping). */
export interface MarkdownProps {
  readonly text: string;
  readonly isStreaming?: boolean;
}

type Renderer = (props: MarkdownProps) => React.JSX.Element;

let loading: Promise<{ default: Renderer }> | undefined;
let loaded: Renderer | undefined;
let prepare: ((text: string) => void) | undefined;

/** The renderer once its chunk is here: rendered directly, it shows formatted text in the first frame (no Suspense). */
export const markdownIfLoaded = (): Renderer | undefined => loaded;

/**
 * react-markdown and its parsers are a large part of the bundle: they load after the first screen, with the thread's
 * chunk (which waits for them, so a reopened thread shows formatted at once, never its markdown source first).
 */
export const preloadMarkdown = () =>
  (loading ??= import('./markdown-renderer').then(
    (module) => {
      loaded = module.default;
      prepare = module.prepareMarkdown;
      return module;
    },
    () => ({ default: PlainText }),
  ));

/**
 * Parses a finished text ahead of its row (kept as a row's own render would keep it), once the renderer is here;
 * nothing before. Text that would show as plain text or holds formulas is left to its row.
 */
export const prepareMarkdownIfLoaded = (text: string): void => prepare?.(text);
