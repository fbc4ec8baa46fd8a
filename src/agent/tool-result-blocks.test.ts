import { describe, expect, it } from 'vitest';
import type { ContentBlock } from '../domain/message';
import type { ToolCallResult } from '../domain/tool-result';
import { samplePng } from '../../test/fixtures/sample-files';
import { resultImagesNote } from './image-limits';
import { toModelToolResult, withinResultImageCaps } from './tool-result-blocks';

type ResultBlock = Extract<ContentBlock, { type: 'tool_result' }>;
const result = (content: ToolCallResult['content'], structuredContent?: Record<string, unknown>): ToolCallResult => ({
  content,
  isError: false,
  durationMs: 1,
  ...(structuredContent ? { structuredContent } : {}),
});
const texts = (block: ResultBlock) => block.content.flatMap((c) => (c.type === 'text' ? [c.text] : []));
const images = (block: ResultBlock) => block.content.filter((c) => c.type === 'image');
const CAP = 40_000;

describe('MCP tool content as the API accepts it', () => {
  it('sends text as text and a PNG as an image block', () => {
    const { block, sent } = toModelToolResult(
      't',
      result([
        { type: 'text', text: 'a chart' },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      ]),
      CAP,
    );
    expect(block.content).toEqual([
      { type: 'text', text: 'a chart' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
    ]);
    expect(sent).toMatchObject({ images: 1, isTruncated: false, leftOut: [], capChars: CAP });
  });

  it('sends an image with the type its bytes show, not the one the server declared (the API refuses a mismatch)', () => {
    const png = 'iVBORw0KGgoAAAANSUhEUg==';
    const jpeg = btoa(String.fromCharCode(0xff, 0xd8, 0xff, 0xe0, 0, 16));
    const { block } = toModelToolResult(
      't',
      result([
        { type: 'image', mimeType: 'image/jpeg', data: png },
        { type: 'image', mimeType: 'image/jpg', data: jpeg }, // not a type the API knows, but JPEG bytes
      ]),
      CAP,
    );
    expect(images(block).map((image) => image.type === 'image' && image.source.media_type)).toEqual([
      'image/png',
      'image/jpeg',
    ]);
  });

  it('names an image type the API refuses (SVG) instead of sending it', () => {
    const { block, sent } = toModelToolResult(
      't',
      result([{ type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz4=' }]),
      CAP,
    );
    expect(images(block)).toHaveLength(0);
    expect(texts(block)[0]).toMatch(
      /^\[image \(image\/svg\+xml, 5 B\): not sent, the model API takes only JPEG, PNG, GIF and WebP images\]$/,
    );
    expect(sent.leftOut).toHaveLength(1);
  });

  it('leaves out an image over the API limit of 5 MB once encoded (4 MB of bytes), saying its size', () => {
    const data = 'A'.repeat(Math.ceil((4 * 1024 * 1024 * 4) / 3));
    const { block } = toModelToolResult('t', result([{ type: 'image', mimeType: 'image/jpeg', data }]), 10_000_000);
    expect(images(block)).toHaveLength(0);
    expect(texts(block)[0]).toBe(
      "[image (image/jpeg, 4.0 MB): not sent, 5.3 MB once encoded, over the API's limit of 5 MB per image]",
    );
  });

  it('names an image over 8000 px a side (a full-page screenshot) instead of sending it, and keeps it for the person', () => {
    const png = (width: number, height: number) => ({
      type: 'image' as const,
      mimeType: 'image/png',
      data: samplePng(width, height).toString('base64'),
    });
    const tall = result([png(1280, 12_000), png(1280, 8000)]);
    const { block, sent } = toModelToolResult('t', tall, CAP);
    expect(images(block)).toHaveLength(1);
    expect(texts(block)).toEqual([
      '[image (image/png, 1280x12000 px): not sent, the API takes images up to 8000x8000 px]',
    ]);
    expect(sent.leftOut).toHaveLength(1);
    expect(withinResultImageCaps(tall)).toEqual(tall);
  });

  it('names audio with its type and size: the API takes no audio', () => {
    const { block, sent } = toModelToolResult(
      't',
      result([{ type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' }]),
      CAP,
    );
    expect(texts(block)).toEqual([
      '[audio (audio/wav, 4 B): shown to the person, not sent; the model API takes no audio]',
    ]);
    expect(sent.leftOut[0]).toMatch(/^audio \(audio\/wav/);
  });

  it('sends an embedded text resource under its URI (text as a blob too), an image blob as an image, and names other blobs', () => {
    const { block } = toModelToolResult(
      't',
      result([
        { type: 'resource', uri: 'test://static/resource/1', mimeType: 'text/plain', text: 'Resource 1 text' },
        { type: 'resource', uri: 'file:///logo.png', mimeType: 'image/png', blob: 'iVBORw0KGgo=' },
        { type: 'resource', uri: 'test://static/resource/2', mimeType: 'application/octet-stream', blob: 'AAAA' },
        {
          type: 'resource',
          uri: 'demo://resource/dynamic/blob/1',
          mimeType: 'text/plain',
          blob: Buffer.from('Blob text, read as text').toString('base64'),
        },
      ]),
      CAP,
    );
    expect(block.content).toEqual([
      { type: 'text', text: '[resource test://static/resource/1 (text/plain)]\nResource 1 text' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      {
        type: 'text',
        text: '[resource test://static/resource/2 (application/octet-stream, 3 B): binary content shown to the person, not sent]',
      },
      { type: 'text', text: '[resource demo://resource/dynamic/blob/1 (text/plain)]\nBlob text, read as text' },
    ]);
  });

  it('names a resource link with its URI, type and description', () => {
    const { block } = toModelToolResult(
      't',
      result([
        {
          type: 'resource_link',
          uri: 'demo://resource/static/document/architecture.md',
          name: 'architecture.md',
          mimeType: 'text/markdown',
          description: 'The design',
        },
      ]),
      CAP,
    );
    expect(texts(block)).toEqual([
      '[resource link] architecture.md demo://resource/static/document/architecture.md (text/markdown) : The design',
    ]);
  });

  it('adds structured content as JSON when there is no text content', () => {
    const { block } = toModelToolResult('t', result([], { temperature: 22, conditions: 'Sunny' }), CAP);
    expect(texts(block)).toEqual(['{"temperature":22,"conditions":"Sunny"}']);
  });

  it('adds structured content when the text says less than it', () => {
    const { block } = toModelToolResult(
      't',
      result([{ type: 'text', text: 'Sunny in Chicago' }], { temperature: 22, conditions: 'Sunny', humidity: 40 }),
      CAP,
    );
    expect(texts(block)).toEqual(['Sunny in Chicago', '{"temperature":22,"conditions":"Sunny","humidity":40}']);
  });

  it('does not repeat structured content that a text block already carries as JSON, whatever its key order', () => {
    const { block } = toModelToolResult(
      't',
      result([{ type: 'text', text: '{\n  "conditions": "Sunny",\n  "temperature": 22\n}' }], {
        temperature: 22,
        conditions: 'Sunny',
      }),
      CAP,
    );
    expect(texts(block)).toHaveLength(1);
  });

  it('keeps text within the cap and says so in the block and in what the trace records', () => {
    const { block, sent } = toModelToolResult('t', result([{ type: 'text', text: 'x'.repeat(50_000) }]), 1_000);
    expect(texts(block)[0]).toHaveLength(1_000);
    expect(texts(block).at(-1)).toBe('[Output truncated to 1000 characters.]');
    // The person is told what of the result went: 1,000 of its 50,000 characters (the note is not the result's).
    expect(sent).toMatchObject({ capChars: 1_000, isTruncated: true, textChars: 1_000, fullChars: 50_000 });
  });

  it('cuts structured content by the same cap', () => {
    const big = { rows: Array.from({ length: 5_000 }, (_, i) => ({ i })) };
    const { block, sent } = toModelToolResult('t', result([], big), 2_000);
    expect(texts(block)[0]).toHaveLength(2_000);
    expect(sent.isTruncated).toBe(true);
  });

  it('flags an error result and says "(no output)" for an empty one', () => {
    expect(toModelToolResult('t', { content: [], isError: true, durationMs: 1 }, CAP).block).toEqual({
      type: 'tool_result',
      tool_use_id: 't',
      content: [{ type: 'text', text: '(no output)' }],
      is_error: true,
    });
  });

  it('keeps in the thread the same images the model gets, the rest left out with the same note', () => {
    const png = (i: number) => ({
      type: 'image' as const,
      mimeType: 'image/png',
      data: `iVBORw0KGgo${i}`.padEnd(16, 'A'),
    });
    const svg = { type: 'image' as const, mimeType: 'image/svg+xml', data: 'PHN2Zz4=' };
    const all = result([{ type: 'text', text: 'shots' }, svg, ...Array.from({ length: 50 }, (_, i) => png(i))]);
    const kept = withinResultImageCaps(all);
    const sentImages = images(toModelToolResult('t', all, CAP).block).map((c) => c.source.data);
    const keptImages = kept.content.flatMap((c) => (c.type === 'image' && c.mimeType === 'image/png' ? [c.data] : []));
    expect(keptImages).toEqual(sentImages);
    expect(keptImages).toHaveLength(10);
    // The SVG is not sent, but the person still sees it; the note says what was left out.
    expect(kept.content).toContainEqual(svg);
    expect(kept.content.at(-1)).toEqual({ type: 'text', text: resultImagesNote(40, 50) });
    expect(withinResultImageCaps(result([png(1)]))).toEqual(result([png(1)]));
  });
});
