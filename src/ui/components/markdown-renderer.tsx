import type { Element } from 'hast';
import ReactMarkdown, { defaultUrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { useMathPlugins } from './use-math-plugins';
import { CodeBlock } from './code-block';
import { AnswerImage } from './answer-image';

/** Only these link schemes stay clickable; javascript:, data: and the like become inert. */
const SAFE_URL = /^(https?:|mailto:|#|\/)/i;
/** Images an answer may show, and only after a click: inline data images of the API's formats, or https ones. */
const IMAGE_URL = /^(data:image\/(png|jpeg|gif|webp);base64,|https:)/i;

function safeUrl(url: string, key: string): string {
  if (key === 'src') return IMAGE_URL.test(url) ? url : '';
  const transformed = defaultUrlTransform(url);
  return SAFE_URL.test(transformed) ? transformed : '';
}

/**
 * Renders untrusted markdown (model text, tool output) with GitHub's extensions (tables, task lists, strikethrough,
 * autolinks) as inert elements: raw HTML never becomes elements but is shown as the literal text it is (react-markdown
 * without skipHtml or rehype-raw turns it into text nodes, so nothing a model or server sent silently vanishes), unsafe
 * link schemes are dropped, images load only when the person asks (a remote one would leak the conversation to whoever
 * serves it), and links open in a new tab without a referrer; formulas (`$…$`, `$$…$$`) are typeset by KaTeX, loaded only
 * for text that has one. Loaded on demand through markdown.tsx.
 */
export default function MarkdownRenderer({ text }: { text: string }) {
  const math = useMathPlugins(text);
  return (
    <div className="markdown">
      <ReactMarkdown
        remarkPlugins={math ? [remarkGfm, ...math.mathRemarkPlugins] : [remarkGfm]}
        rehypePlugins={math?.mathRehypePlugins ?? []}
        urlTransform={safeUrl}
        components={{
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
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
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
