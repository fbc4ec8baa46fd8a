import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ToolResultView } from './tool-result-view';

describe('a resource in a tool result', () => {
  it('shows text sent as a blob as text (with its download), and only a download for other binary content', () => {
    const html = renderToStaticMarkup(
      <ToolResultView
        tool="read"
        shown={{
          content: [
            {
              type: 'resource',
              uri: 'demo://resource/dynamic/blob/1',
              mimeType: 'text/plain',
              blob: Buffer.from('Blob text, shown as text').toString('base64'),
            },
            { type: 'resource', uri: 'demo://archive.zip', mimeType: 'application/zip', blob: 'UEsDBA==' },
          ],
        }}
      />,
    );
    expect(html).toContain('<pre class="result-text">Blob text, shown as text</pre>');
    expect(html).toContain('Download 1 (text/plain, 24 B)');
    expect(html.match(/<pre/g)).toHaveLength(1);
    expect(html).toContain('Download archive.zip (application/zip, 4 B)');
  });
});
