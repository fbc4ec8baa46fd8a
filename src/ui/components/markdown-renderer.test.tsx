import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import MarkdownRenderer from './markdown-renderer';

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
