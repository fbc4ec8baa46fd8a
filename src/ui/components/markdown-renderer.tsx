import type { Element } from 'hast';
import type { ReactElement } from 'react';
import ReactMarkdown, { defaultUrlTransform, type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { markdownBudgetProblem } from './markdown-budget';
import { mayHoldMath, useMathPlugins, type MathPlugins } from './use-math-plugins';
import { CodeBlock } from './code-block';
import { AnswerImage } from './answer-image';
import type { MarkdownProps } from './markdown-loader';
import { createRenderCache } from './render-cache';

/** Only these link schemes stay clickable; javascript:, data: and the like become inert. */
const SAFE_URL = /^(https?:|mailto:|#|\/)/i;
/** Images an answer may show, and only after a click: inline data images of the API's formats, or https ones. */
const IMAGE_URL = /^(data:image\/(png|jpeg|gif|webp);base64,|https:)/i;

function safeUrl(url: string, key: string): string {
  if (key === 'src') return IMAGE_URL.test(url) ? url : '';
  const transformed = defaultUrlTransform(url);
  return SAFE_URL.test(transformed) ? transformed : '';
}

/** The elements markdown becomes; one object for every render, so a row's elements keep their type (and state). */
const COMPONENTS: Components = {
  a: ({ href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  img: ({ src, alt }) => <AnswerImage src={typeof src === 'string' ? src : ''} alt={alt ?? ''} />,
  pre: ({ node }) => <CodeBlock {...codeOf(node)} />,
  // An answer's headings sit under the page's (h1 the app, h2 the thread): `#` is an h3 there, so heading
  // navigation reads the page's outline, while each keeps the size of the level it was written at.
  h1: ({ children }) => <h3 className="md-h1">{children}</h3>,
  h2: ({ children }) => <h4 className="md-h2">{children}</h4>,
  h3: ({ children }) => <h5 className="md-h3">{children}</h5>,
  h4: ({ children }) => <h6 className="md-h4">{children}</h6>,
  h5: ({ children }) => <h6 className="md-h5">{children}</h6>,
  h6: ({ children }) => <h6 className="md-h6">{children}</h6>,
  table: ({ children }) => (
    <div className="table-scroll">
      <table>{children}</table>
    </div>
  ),
};

/**
 * Texts rendered lately, without and with formulas: a row scrolled back into view or a thread opened again shows its
 * answers without parsing them again (a long answer with a code block takes several ms to parse).
 */
export const MARKDOWN_CACHE_ENTRIES = 300;
const rendered = {
  plain: createRenderCache<ReactElement>(MARKDOWN_CACHE_ENTRIES),
  math: createRenderCache<ReactElement>(MARKDOWN_CACHE_ENTRIES),
};

/**
 * Renders untrusted markdown (model text, tool output) with GitHub's extensions (tables, task lists, strikethrough,
 * autolinks) as inert elements: raw HTML never becomes elements but is shown as the literal text it is (react-markdown
 * without skipHtml or rehype-raw turns it into text nodes, so nothing a model or server sent silently vanishes), unsafe
 * link schemes are dropped, images load only when the person asks (a remote one would leak the conversation to whoever
 * serves it), and links open in a new tab without a referrer; formulas (`$…$`, `$$…$$`) are typeset by KaTeX, loaded only
 * for text that has one. Loaded on demand through markdown.tsx. A text still streaming is parsed on each change and not
 * kept; a finished one is parsed once while it stays in the cache.
 */
export default function MarkdownRenderer({ text, isStreaming = false }: MarkdownProps) {
  return markdownElement(text, useMathPlugins(text), isStreaming);
}

/** The elements of `text` (with KaTeX's plugins when given): kept ones for a finished text, parsed anew while it streams. */
export function markdownElement(text: string, math: MathPlugins | undefined, isStreaming: boolean): ReactElement {
  const cache = math ? rendered.math : rendered.plain;
  const kept = isStreaming ? undefined : cache.get(text);
  if (kept) return kept;
  // react-markdown's synchronous renderer is a pure function of its options (no hooks): its elements can be kept.
  const element = (
    <div className="markdown">
      {ReactMarkdown({
        children: text,
        remarkPlugins: math ? [remarkGfm, ...math.mathRemarkPlugins] : [remarkGfm],
        rehypePlugins: math?.mathRehypePlugins ?? [],
        urlTransform: safeUrl,
        components: COMPONENTS,
      })}
    </div>
  );
  if (!isStreaming) cache.set(text, element);
  return element;
}

/**
 * Parses `text` into the cache ahead of its row (the rows next to the view, while the page is idle), unless it is
 * kept already, would not be given to the parser (markdown.tsx shows it as plain text), or may hold formulas (its row
 * loads KaTeX for it). A text that fails here is left to its row, whose boundary shows it as plain text.
 */
export function prepareMarkdown(text: string): void {
  if (rendered.plain.get(text) || mayHoldMath(text) || markdownBudgetProblem(text)) return;
  try {
    markdownElement(text, undefined, false);
  } catch {
    // Its row renders it again, inside its boundary.
  }
}

/** The text and fenced language of a `<pre><code class="language-x">` node. */
function codeOf(node: Element | undefined): { code: string; language?: string } {
  const code = node?.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
  const classes = code?.properties.className;
  const language = Array.isArray(classes)
    ? classes
        .map(String)
        .find((name) => name.startsWith('language-'))
        ?.slice('language-'.length)
    : undefined;
  const text = (code?.children ?? []).map((child) => (child.type === 'text' ? child.value : '')).join('');
  return { code: text.replace(/\n$/, ''), ...(language ? { language } : {}) };
}
