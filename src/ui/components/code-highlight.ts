import { toJsxRuntime } from 'hast-util-to-jsx-runtime';
import { common, createLowlight } from 'lowlight';
import type { ReactNode } from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';

/** Longer code is left uncoloured: highlighting is a nicety, and the grammar's work grows with the text. */
export const MAX_HIGHLIGHT_CHARS = 20_000;

const lowlight = createLowlight(common);

/**
 * Syntax colouring for a code block in a language the fence names, as React elements (a hast tree of spans with
 * `hljs-*` classes, never an HTML string); undefined for an unknown language or code too long to colour.
 * Loaded on demand by markdown-renderer.tsx, so the grammars stay out of the first screen.
 */
export function highlightCode(code: string, language: string): ReactNode | undefined {
  if (code.length > MAX_HIGHLIGHT_CHARS || !lowlight.registered(language)) return undefined;
  const tree = lowlight.highlight(language, code);
  return toJsxRuntime(tree, { Fragment, jsx, jsxs }) as ReactNode;
}
