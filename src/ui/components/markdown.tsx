import { lazy, Suspense } from 'react';
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

/** Renders untrusted markdown as inert elements (see markdown-renderer.tsx). */
export function Markdown({ text }: { text: string }) {
  return (
    <Suspense fallback={<PlainText text={text} />}>
      <MarkdownRenderer text={text} />
    </Suspense>
  );
}
