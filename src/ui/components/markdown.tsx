import { createElement, lazy, Suspense } from 'react';
import { markdownIfLoaded, PlainText, preloadMarkdown, type MarkdownProps } from './markdown-loader';
import { markdownBudgetProblem } from './markdown-budget';
import { PlainFallback, RenderBoundary } from './render-boundary';
import './markdown.css';

const MarkdownRenderer = lazy(preloadMarkdown);

/**
 * Renders untrusted markdown as inert elements (see markdown-renderer.tsx). Text nested too deep or too long for
 * the parser's stack and time is shown as plain text instead, and anything that still throws stays in its box.
 */
export function Markdown({ text, isStreaming = false }: MarkdownProps) {
  const problem = markdownBudgetProblem(text);
  if (problem)
    return (
      <PlainFallback note={`This text could not be formatted (${problem}); it is shown as plain text.`} text={text} />
    );
  // Once loaded (the thread's chunk waits for it), the renderer is used directly: a lazy component suspends on its
  // first render even when its code is here, which would show the markdown source for a frame. It is one module-level
  // component, the same on every render.
  const loaded = markdownIfLoaded();
  return (
    <RenderBoundary what="This text" rawText={text}>
      {loaded ? (
        createElement(loaded, { text, isStreaming })
      ) : (
        <Suspense fallback={<PlainText text={text} />}>
          <MarkdownRenderer text={text} isStreaming={isStreaming} />
        </Suspense>
      )}
    </RenderBoundary>
  );
}
