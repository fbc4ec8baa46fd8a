import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import MarkdownRenderer, { markdownElement } from './markdown-renderer';

const html = (text: string) => renderToStaticMarkup(<MarkdownRenderer text={text} />);

describe('MarkdownRenderer and raw HTML', () => {
  it('shows inline HTML in tool output as the literal text it is, next to rendered markdown', () => {
    const out = html(`Echo: <img src=x onerror="window.__pwned='tool'"><script>window.__pwned=1</script> **bold**`);
    expect(out).not.toMatch(/<img|<script/);
    expect(out).toContain('Echo: &lt;img src=x onerror=&quot;window.__pwned=&#x27;tool&#x27;&quot;&gt;');
    expect(out).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;');
    expect(out).toContain('<strong>bold</strong>');
  });

  it('shows a block of HTML as text rather than dropping it', () => {
    const out = html('<div onclick="x()">\n<iframe src="javascript:alert(1)"></iframe>\n</div>\n\n# Title');
    expect(out).not.toMatch(/<div onclick|<iframe/);
    expect(out).toContain('&lt;iframe src=&quot;javascript:alert(1)&quot;&gt;&lt;/iframe&gt;');
    expect(out).toContain('<h3 class="md-h1">Title</h3>');
  });

  it("puts an answer's headings under the page's own: # is an h3 (the app is h1, the thread h2), ###### at most h6", () => {
    const out = html('# One\n\n## Two\n\n### Three\n\n###### Six');
    expect(out).toContain('<h3 class="md-h1">One</h3>');
    expect(out).toContain('<h4 class="md-h2">Two</h4>');
    expect(out).toContain('<h5 class="md-h3">Three</h5>');
    expect(out).toContain('<h6 class="md-h6">Six</h6>');
    expect(out).not.toMatch(/<h[12][ >]/);
  });
});

describe('markdownElement', () => {
  it('parses a finished text once: the same text gives back the same elements', () => {
    const text = 'A **finished** answer with `code`.';
    const first = markdownElement(text, undefined, false);
    expect(markdownElement(text, undefined, false)).toBe(first);
    expect(renderToStaticMarkup(first)).toContain('<strong>finished</strong>');
  });

  it('parses a streaming text on each change and keeps none of its versions', () => {
    const text = 'An answer still **streaming**';
    const first = markdownElement(text, undefined, true);
    expect(markdownElement(text, undefined, true)).not.toBe(first);
    // Once finished, the text is parsed afresh (nothing was kept while it streamed) and kept from then on.
    const finished = markdownElement(text, undefined, false);
    expect(finished).not.toBe(first);
    expect(markdownElement(text, undefined, false)).toBe(finished);
  });

  it('keeps texts with and without formulas apart', () => {
    const text = 'Area: $a^2$';
    const math = { mathRemarkPlugins: [], mathRehypePlugins: [] };
    expect(markdownElement(text, math, false)).not.toBe(markdownElement(text, undefined, false));
  });
});
