import ReactMarkdown, { defaultUrlTransform } from 'react-markdown';

/** Only these link schemes stay clickable; javascript:, data: and the like become inert. */
const SAFE_URL = /^(https?:|mailto:|#|\/)/i;

function safeUrl(url: string): string {
  const transformed = defaultUrlTransform(url);
  return SAFE_URL.test(transformed) ? transformed : '';
}

/**
 * Renders untrusted markdown (model text, tool output) as inert elements: react-markdown never renders
 * raw HTML, unsafe link schemes are dropped, remote images are not loaded (they would leak the
 * conversation to whoever serves them), and links open in a new tab without a referrer.
 * Loaded on demand through markdown.tsx.
 */
export default function MarkdownRenderer({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown
        skipHtml
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
          img: ({ alt }) => <span className="image-placeholder">[image{alt ? `: ${alt}` : ''}]</span>,
          pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}

function CodeBlock({ children }: { children: React.ReactNode }) {
  const copy = (event: React.MouseEvent<HTMLButtonElement>) => {
    const code = event.currentTarget.parentElement?.querySelector('code')?.textContent ?? '';
    void navigator.clipboard?.writeText(code).catch(() => undefined);
  };
  return (
    <div className="code-block">
      <button type="button" className="copy" onClick={copy} aria-label="Copy code">
        Copy
      </button>
      <pre>{children}</pre>
    </div>
  );
}
