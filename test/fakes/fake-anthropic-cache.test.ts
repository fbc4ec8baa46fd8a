// Prompt-cache accounting of the contract fake: writes, reads at block boundaries, the minimum length, the 20-block
// lookback and the 5-minute TTL, as the real SDK reads them in `usage`.
import type Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic';
import { CACHE_TTL_MS, PromptCache, promptBlocks } from './fake-anthropic-cache';
import { MODEL, sdkClient } from './fake-anthropic-client';

let fake: FakeAnthropic | undefined;
let clock = 0;
afterEach(() => fake?.stop());

async function start() {
  clock = 1_000_000;
  fake = await startFakeAnthropic({ now: () => clock });
  return fake;
}

/** A system prompt of about `tokens` tokens (4 characters a token) with a breakpoint on it. */
const cachedSystem = (tokens: number, text = 'a'): Anthropic.TextBlockParam[] => [
  { type: 'text', text: text.repeat(tokens * 4 - 30), cache_control: { type: 'ephemeral' } },
];

async function usageOf(target: FakeAnthropic, params: Partial<Anthropic.MessageCreateParamsNonStreaming>) {
  target.script({ text: 'ok' });
  const message = await sdkClient(target.url).messages.create({
    model: MODEL,
    max_tokens: 100,
    messages: [{ role: 'user', content: 'What is in it?' }],
    ...params,
  });
  return message.usage;
}

describe('contract fake: prompt cache accounting', () => {
  it('writes the prefix up to a breakpoint, then a second request reads it; input_tokens is only the rest', async () => {
    const target = await start();
    const first = await usageOf(target, { system: cachedSystem(1500) });
    expect(first.cache_read_input_tokens).toBe(0);
    expect(first.cache_creation_input_tokens).toBeGreaterThanOrEqual(1400);
    expect(first.input_tokens).toBeLessThan(50);
    const second = await usageOf(target, { system: cachedSystem(1500) });
    expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
    expect(second.cache_creation_input_tokens).toBe(0);
    expect(second.input_tokens).toBe(first.input_tokens);
    // Another prefix is a miss.
    const other = await usageOf(target, { system: cachedSystem(1500, 'b') });
    expect(other.cache_read_input_tokens).toBe(0);
  });

  it('never caches a prefix under the model minimum (1,024 for Sonnet, 4,096 for Haiku 4.5)', async () => {
    const target = await start();
    for (let i = 0; i < 2; i++) {
      const usage = await usageOf(target, { system: cachedSystem(900) });
      expect(usage).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
      expect(usage.input_tokens).toBeGreaterThan(900);
    }
    const haiku = await usageOf(target, { model: 'claude-haiku-4-5-20251001', system: cachedSystem(3000) });
    expect(haiku.cache_creation_input_tokens).toBe(0);
    const sonnet = await usageOf(target, { system: cachedSystem(3000) });
    expect(sonnet.cache_creation_input_tokens).toBeGreaterThan(2900);
  });

  it('a growing conversation reads the previous turn at a block boundary and writes the new one', async () => {
    const target = await start();
    const history: [role: 'user' | 'assistant', text: string][] = [['user', 'q'.repeat(6000)]];
    // The breakpoint sits on the newest message, as a conversation that caches itself puts it.
    const mark = (turns: typeof history): Anthropic.MessageParam[] =>
      turns.map(([role, text], i) => ({
        role,
        content: [{ type: 'text', text, ...(i === turns.length - 1 ? { cache_control: { type: 'ephemeral' } } : {}) }],
      }));
    const first = await usageOf(target, { messages: mark(history) });
    history.push(['assistant', 'ok'], ['user', 'r'.repeat(6000)]);
    const second = await usageOf(target, { messages: mark(history) });
    expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
    expect(second.cache_creation_input_tokens).toBeGreaterThan(1500);
  });

  it('looks back at most 20 blocks from a breakpoint', () => {
    const cache = new PromptCache(() => 0);
    const big = { type: 'text', text: 'z'.repeat(8000) };
    const body = (extra: number) => ({
      messages: [
        {
          role: 'user',
          content: [
            extra === 0 ? { ...big, cache_control: { type: 'ephemeral' } } : big,
            ...Array.from({ length: extra }, (_, i) => ({
              type: 'text',
              text: `block ${i}`,
              ...(i === extra - 1 ? { cache_control: { type: 'ephemeral' } } : {}),
            })),
          ],
        },
      ],
    });
    const written = cache.account(MODEL, promptBlocks(body(0))).cache_creation_input_tokens;
    expect(written).toBeGreaterThan(1900);
    // Breakpoint 19 blocks after the cached one: its lookback window of 20 blocks still reaches it.
    expect(cache.account(MODEL, promptBlocks(body(19))).cache_read_input_tokens).toBe(written);
    // 20 blocks after (on a cache that holds only the big block): out of reach, so nothing is read.
    const fresh = new PromptCache(() => 0);
    fresh.account(MODEL, promptBlocks(body(0)));
    expect(fresh.account(MODEL, promptBlocks(body(20))).cache_read_input_tokens).toBe(0);
  });

  it('expires an entry 5 minutes after its last use, on the injected clock', async () => {
    const target = await start();
    const written = (await usageOf(target, { system: cachedSystem(1500) })).cache_creation_input_tokens;
    clock += CACHE_TTL_MS - 1;
    expect((await usageOf(target, { system: cachedSystem(1500) })).cache_read_input_tokens).toBe(written);
    // The read refreshed the entry: it lives another 5 minutes from now.
    clock += CACHE_TTL_MS - 1;
    expect((await usageOf(target, { system: cachedSystem(1500) })).cache_read_input_tokens).toBe(written);
    clock += CACHE_TTL_MS;
    const expired = await usageOf(target, { system: cachedSystem(1500) });
    expect(expired).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: written });
  });

  it('leaves deferred tools out of the prompt', async () => {
    const target = await start();
    const schema = { type: 'object' as const, properties: { q: { type: 'string', description: 'd'.repeat(4000) } } };
    const plain = await usageOf(target, { tools: [{ name: 'a', input_schema: { type: 'object' } }] });
    const deferred = await usageOf(target, {
      tools: [
        { name: 'a', input_schema: { type: 'object' } },
        { name: 'b', input_schema: schema, defer_loading: true },
      ],
    });
    expect(deferred.input_tokens).toBe(plain.input_tokens);
  });
});

describe('contract fake: images count as images', () => {
  /** A base64 PNG of the given size: a real signature and IHDR, padded with `padBytes` of image data. */
  const png = (width: number, height: number, padBytes: number) => {
    const head = Buffer.alloc(24);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(head, 0);
    head.writeUInt32BE(13, 8);
    head.write('IHDR', 12, 'latin1');
    head.writeUInt32BE(width, 16);
    head.writeUInt32BE(height, 20);
    return Buffer.concat([head, Buffer.alloc(padBytes, 7)]).toString('base64');
  };

  it('ten 150 KB screenshots cost their pixels (at most 1,600 tokens each), not their bytes, and fit a 200k window', async () => {
    const target = await start();
    const images = Array.from({ length: 10 }, () => ({
      type: 'image' as const,
      source: { type: 'base64' as const, media_type: 'image/png' as const, data: png(1280, 800, 150_000) },
    }));
    const usage = await usageOf(target, {
      messages: [{ role: 'user', content: [...images, { type: 'text', text: 'What is in them?' }] }],
    });
    // 1280 x 800 / 750 = 1,366 tokens an image; the base64 text alone would be 50,000 tokens each.
    expect(usage.input_tokens).toBeGreaterThan(10 * 1366);
    expect(usage.input_tokens).toBeLessThan(10 * 1366 + 500); // plus each block's JSON around the data
  });
});
