import { describe, expect, it } from 'vitest';
import type { ContentBlock, Message } from '../domain/message';
import type { ToolCallResult } from '../domain/tool-result';
import { samplePng } from '../../test/fixtures/sample-files';
import { toModelMessages, toToolResultBlock } from './history';
import {
  MAX_IMAGE_CHARS_PER_REQUEST,
  MAX_IMAGE_CHARS_PER_RESULT,
  MAX_IMAGES_PER_REQUEST,
  MAX_IMAGES_PER_RESULT,
} from './image-limits';

type ResultBlock = Extract<ContentBlock, { type: 'tool_result' }>;
/** A PNG of ~147 KB as base64, as in issue #15 (the content does not matter to the converters). */
const png = (i: number, chars = 196_000) => ({
  type: 'image' as const,
  mimeType: 'image/png',
  data: `${i}`.padEnd(chars, 'A'),
});
const result = (content: ToolCallResult['content']): ToolCallResult => ({ content, isError: false, durationMs: 1 });
const images = (block: ResultBlock) => block.content.filter((c) => c.type === 'image');
const texts = (block: ResultBlock) => block.content.flatMap((c) => (c.type === 'text' ? [c.text] : []));

describe('images in a tool result', () => {
  it('keeps at most the capped count of 50 images and says how many were left out', () => {
    const block = toToolResultBlock('t1', result(Array.from({ length: 50 }, (_, i) => png(i, 1_000))));
    expect(images(block)).toHaveLength(MAX_IMAGES_PER_RESULT);
    expect(texts(block)).toContain(
      `[40 of 50 images left out: a tool result keeps at most ${MAX_IMAGES_PER_RESULT} images and ${MAX_IMAGE_CHARS_PER_RESULT / 1_000_000} MB of image data.]`,
    );
  });

  it('keeps image data within the per-result byte cap', () => {
    const block = toToolResultBlock('t1', result(Array.from({ length: 50 }, (_, i) => png(i, 300_000))), 1_000_000);
    const kept = images(block).reduce((sum, c) => sum + (c.type === 'image' ? c.source.data.length : 0), 0);
    expect(kept).toBeLessThanOrEqual(MAX_IMAGE_CHARS_PER_RESULT);
    expect(images(block).length).toBe(Math.floor(MAX_IMAGE_CHARS_PER_RESULT / 300_000));
    expect(texts(block).at(-1)).toMatch(/^\[\d+ of 50 images left out: /);
  });

  it('keeps a few small images as they are, with no note', () => {
    const block = toToolResultBlock('t1', result([png(1, 1_000), { type: 'text', text: 'two charts' }, png(2, 1_000)]));
    expect(images(block)).toHaveLength(2);
    expect(texts(block)).toEqual(['two charts']);
  });
});

function thread(toolResults: ResultBlock[]): Message[] {
  return toolResults.flatMap((block, i): Message[] => [
    message(`a${i}`, 'assistant', [{ type: 'tool_use', id: block.tool_use_id, name: 'shot', input: {} }]),
    message(`u${i}`, 'user', [block]),
  ]);
}
function message(id: string, role: Message['role'], blocks: ContentBlock[]): Message {
  return { id, threadId: 'th', seq: 0, role, blocks, status: 'complete', trace: [], createdAt: 0, updatedAt: 0 };
}
type Image = Extract<ContentBlock, { type: 'image' }>;
const imageBlocks = (from: ReturnType<typeof toModelMessages>): Image[] =>
  from
    .flatMap((m) => m.content.flatMap((b): readonly unknown[] => (b.type === 'tool_result' ? b.content : [b])))
    .filter((c): c is Image => (c as { type?: string }).type === 'image');

describe('images in a model request', () => {
  const start = message('q', 'user', [{ type: 'text', text: 'take screenshots' }]);
  const stored = (count: number, chars: number) =>
    thread(
      Array.from({ length: count }, (_, i) => ({
        type: 'tool_result' as const,
        tool_use_id: `use${i}`,
        content: [
          { type: 'text' as const, text: `shot ${i}` },
          {
            type: 'image' as const,
            source: { type: 'base64' as const, media_type: 'image/png', data: `${i}`.padEnd(chars, 'A') },
          },
        ],
      })),
    );

  it('re-sends only the newest images; older ones become a placeholder', () => {
    const history = [start, ...stored(50, 1_000)];
    const sent = toModelMessages(history);
    const kept = imageBlocks(sent);
    expect(kept).toHaveLength(MAX_IMAGES_PER_REQUEST);
    expect(kept.map((b) => b.source.data.slice(0, 2))).toEqual(
      Array.from({ length: MAX_IMAGES_PER_REQUEST }, (_, i) => `${50 - MAX_IMAGES_PER_REQUEST + i}`.padEnd(2, 'A')),
    );
    const first = sent.find((m) => m.content.some((b) => b.type === 'tool_result' && b.tool_use_id === 'use0'))!;
    const oldest = first.content.find((b) => b.type === 'tool_result' && b.tool_use_id === 'use0') as ResultBlock;
    expect(oldest.content).toEqual([
      { type: 'text', text: 'shot 0' },
      {
        type: 'text',
        text: `[An older image was left out of this request: a request carries the newest ${MAX_IMAGES_PER_REQUEST} images and ${MAX_IMAGE_CHARS_PER_REQUEST / 1_000_000} MB of image data at most.]`,
      },
    ]);
    // The thread as stored is untouched: the card still shows every image.
    expect(
      history.filter((m) =>
        m.blocks.some((b) => b.type === 'tool_result' && b.content.some((c) => c.type === 'image')),
      ),
    ).toHaveLength(50);
  });

  it('keeps the image data of one request within the byte cap', () => {
    const sent = toModelMessages([start, ...stored(50, 400_000)]);
    const chars = imageBlocks(sent).reduce((sum, b) => sum + b.source.data.length, 0);
    expect(chars).toBeLessThanOrEqual(MAX_IMAGE_CHARS_PER_REQUEST);
    expect(imageBlocks(sent).length).toBe(Math.floor(MAX_IMAGE_CHARS_PER_REQUEST / 400_000));
  });

  it('leaves out an image the API refuses for its size, kept in a thread from before the checks, saying why', () => {
    const tall = samplePng(1280, 12_000).toString('base64');
    const small = samplePng(10, 10).toString('base64');
    const image = (data: string): ContentBlock => ({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data },
    });
    const sent = toModelMessages([message('q', 'user', [{ type: 'text', text: 'look' }, image(tall), image(small)])]);
    expect(sent[0]!.content).toEqual([
      { type: 'text', text: 'look' },
      {
        type: 'text',
        text: '[An image was left out of this request: it is 1280x12000 px and the API takes images up to 8000x8000 px.]',
      },
      image(small),
    ]);
  });
});
