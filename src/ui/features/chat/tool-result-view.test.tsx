import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SentNote } from './sent-note';
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

describe('what a card says of a result', () => {
  it('says so when the tool returned nothing, rather than an empty box', () => {
    const html = renderToStaticMarkup(<ToolResultView tool="ping" shown={{ content: [] }} />);
    expect(html).toContain('The tool returned nothing (the model was told “no output”).');
  });

  it('says how much of a cut result the model got, out of how much', () => {
    const sent = { textChars: 40_000, capChars: 40_000, images: 0, imageBytes: 0, isTruncated: true, leftOut: [] };
    expect(renderToStaticMarkup(<SentNote sent={{ ...sent, fullChars: 5_242_880 }} />)).toContain(
      'Sent to the model: the first 40,000 of 5,242,880 characters of text (the cap), with a note that the rest was cut.',
    );
    // A trace stored before the full size was kept still reads.
    expect(renderToStaticMarkup(<SentNote sent={sent} />)).toContain(
      'Sent to the model: 40,000 characters of text; the cap is 40,000 characters (the text was cut to it).',
    );
  });
});
