import { useEffect, useState, type ReactNode } from 'react';
import type { highlightCode } from './code-highlight';
import { CopyButton } from './copy-button';
import { createRenderCache } from './render-cache';

type Highlighter = { readonly highlightCode: typeof highlightCode };
let highlighter: Promise<Highlighter | undefined> | undefined;
/** The grammars load with the first code block that names a language, never with the first screen. */
const loadHighlighter = () =>
  (highlighter ??= import('./code-highlight').catch(() => {
    highlighter = undefined; // The block stays plain text (what the person sees); a later block tries the load again.
    return undefined;
  }));

/** Blocks coloured lately, by language and text (null: not colourable); a block shown again is coloured at once. */
export const COLOURED_CACHE_ENTRIES = 300;
const coloured = createRenderCache<ReactNode | null>(COLOURED_CACHE_ENTRIES);
const keyOf = (code: string, language: string) => `${language.toLowerCase()}\n${code}`;

/** Colours `code` with the loaded highlighter and keeps the result; null when it cannot be coloured. */
export function colourCode(module: Highlighter, code: string, language: string): ReactNode | null {
  let nodes: ReactNode | undefined;
  try {
    nodes = module.highlightCode(code, language.toLowerCase());
  } catch {
    nodes = undefined;
  }
  const result = nodes === undefined ? null : nodes;
  coloured.set(keyOf(code, language), result);
  return result;
}

/** When a scroll last moved anything in the page (scroll events do not bubble; captured, they all reach here). */
let lastScrollAt = Number.NEGATIVE_INFINITY;
if (typeof document !== 'undefined')
  document.addEventListener('scroll', () => void (lastScrollAt = performance.now()), { capture: true, passive: true });
/** Colouring waits until the page has not scrolled for this long… */
export const SCROLL_PAUSE_MS = 150;
/** …or for at most this long at a time: a block in view is coloured within about a second, scrolling or not. */
export const IDLE_TIMEOUT_MS = 1000;

/** The browser's idle callbacks (with their timeout), as `whenStill` asks for them; injected in tests. */
export interface IdleRequests {
  request(callback: (deadline: { readonly didTimeout: boolean }) => void, timeoutMs: number): number;
  cancel(handle: number): void;
}

/**
 * Runs `work` in an idle moment once the page has not scrolled for SCROLL_PAUSE_MS (or when an idle request times
 * out), so that colouring waits while rows are scrolled past or a thread opens, and a block that leaves before then is
 * never coloured; returns its cancel. A coloured block is rendered, laid out and painted anew: done in a scroll's idle
 * moments, it made the next frames late.
 */
export function whenStill(work: () => void, idle: IdleRequests, msSinceScroll: () => number): () => void {
  const attempt = (deadline: { readonly didTimeout: boolean }) => {
    if (!deadline.didTimeout && msSinceScroll() < SCROLL_PAUSE_MS) handle = idle.request(attempt, IDLE_TIMEOUT_MS);
    else work();
  };
  let handle = idle.request(attempt, IDLE_TIMEOUT_MS);
  return () => idle.cancel(handle);
}

function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const idle: IdleRequests = {
      request: (callback, timeout) => requestIdleCallback(callback, { timeout }),
      cancel: (handle) => cancelIdleCallback(handle),
    };
    return whenStill(work, idle, () => performance.now() - lastScrollAt);
  }
  const id = setTimeout(work, 50);
  return () => clearTimeout(id);
}

/**
 * A fenced code block: its text at once, coloured once the highlighter has loaded and the page is idle and not
 * scrolling (if the fence names a language it knows; a block coloured before is coloured in its first frame), with a
 * Copy button. Colouring that fails leaves the plain text.
 */
export function CodeBlock({ code, language }: { code: string; language?: string }) {
  const kept = language ? coloured.get(keyOf(code, language)) : undefined;
  const [fresh, setFresh] = useState<{ code: string; nodes: ReactNode } | undefined>();
  useEffect(() => {
    if (!language || kept !== undefined) return;
    let isCurrent = true;
    const cancel = whenIdle(() => {
      void loadHighlighter().then((module) => {
        if (!module || !isCurrent) return;
        const nodes = colourCode(module, code, language);
        if (nodes !== null) setFresh({ code, nodes });
      });
    });
    return () => {
      isCurrent = false;
      cancel();
    };
  }, [code, language, kept]);
  const nodes = kept ?? (fresh?.code === code ? fresh.nodes : undefined);
  const isColoured = nodes !== undefined && nodes !== null;
  return (
    <div className="code-block">
      {language && <span className="code-language">{language}</span>}
      <CopyButton text={code} label="Copy code" />
      <pre>
        <code className={isColoured ? `hljs language-${language}` : undefined}>{isColoured ? nodes : code}</code>
      </pre>
    </div>
  );
}
