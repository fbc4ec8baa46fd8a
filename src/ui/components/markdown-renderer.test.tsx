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
    expect(out).toContain('<h1>Title</h1>');
  });
});
