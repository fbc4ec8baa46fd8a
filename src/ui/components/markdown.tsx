import { lazy, Suspense } from 'react';
import { markdownBudgetProblem } from './markdown-budget';
import { PlainFallback, RenderBoundary } from './render-boundary';
import './markdown.css';

/** Until the renderer has loaded (or if it cannot be), the text shows as it is: plain, inert text. */
function PlainText({ text }: { text: string }) {
  return (
    <div className="markdown">
      <p className="markdown-plain">{text}</p>
    </div>
  );
}

// react-markdown and its parsers are a large part of the bundle: they load with the first message, not the first screen.
const MarkdownRenderer = lazy(() => import('./markdown-renderer').catch(() => ({ default: PlainText })));

/**
 * Renders untrusted markdown as inert elements (see markdown-renderer.tsx). Text nested too deep or too long for
 * the parser's stack and time is shown as plain text instead, and anything that still throws stays in its box.
 */
export function Markdown({ text }: { text: string }) {
  const problem = markdownBudgetProblem(text);
  if (problem)
    return (
      <PlainFallback note={`This text could not be formatted (${problem}); it is shown as plain text.`} text={text} />
    );
  return (
    <RenderBoundary what="This text" rawText={text}>
      <Suspense fallback={<PlainText text={text} />}>
        <MarkdownRenderer text={text} />
      </Suspense>
    </RenderBoundary>
  );
}
