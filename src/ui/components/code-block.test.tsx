import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CodeBlock, colourCode } from './code-block';
import { highlightCode } from './code-highlight';

describe('CodeBlock', () => {
  it('shows a block never coloured as its plain text first (colouring waits for the page to be idle)', () => {
    const html = renderToStaticMarkup(<CodeBlock code={'def first():\n    return 1'} language="python" />);
    expect(html).not.toContain('hljs');
    expect(html).toContain('def first():');
  });

  it('shows a block coloured before already coloured in its first render (a row scrolled back, a thread reopened)', () => {
    const code = 'def again():\n    return 2  # kept';
    expect(colourCode({ highlightCode }, code, 'Python')).not.toBeNull();
    const html = renderToStaticMarkup(<CodeBlock code={code} language="Python" />);
    expect(html).toContain('class="hljs language-Python"');
    expect(html).toContain('<span class="hljs-keyword">def</span>');
    expect(html).toContain('<span class="hljs-comment"># kept</span>');
  });

  it('keeps a block of a language it does not know as plain text', () => {
    const code = 'some words';
    expect(colourCode({ highlightCode }, code, 'no-such-language')).toBeNull();
    expect(renderToStaticMarkup(<CodeBlock code={code} language="no-such-language" />)).not.toContain('hljs');
  });
});
