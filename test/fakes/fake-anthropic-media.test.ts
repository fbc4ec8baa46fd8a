// The fake Anthropic API refuses images and PDFs the way the real API does (fake-anthropic-media.ts), seen through the SDK.
import type Anthropic from '@anthropic-ai/sdk';
import type { APIError } from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { samplePdf, samplePng } from '../fixtures/sample-files';
import { MODEL, sdkClient, useFakeAnthropic } from './fake-anthropic-client';

const fake = useFakeAnthropic().current;

const send = (content: Anthropic.ContentBlockParam[]) =>
  sdkClient(fake().url, { timeout: 60_000 }).messages.create({
    model: MODEL,
    max_tokens: 16,
    messages: [{ role: 'user', content: [...content, { type: 'text', text: 'What is this?' }] }],
  });
const image = (data: Buffer, media_type = 'image/png'): Anthropic.ImageBlockParam => ({
  type: 'image',
  source: { type: 'base64', media_type: media_type as 'image/png', data: data.toString('base64') },
});
const pdf = (data: Buffer): Anthropic.DocumentBlockParam => ({
  type: 'document',
  source: { type: 'base64', media_type: 'application/pdf', data: data.toString('base64') },
});
const refusal = async (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected a refusal'),
    (error: unknown) => error as APIError,
  );

describe('fake Anthropic API: image and PDF limits', () => {
  it('takes a small PNG and a short PDF', async () => {
    fake().script({ text: 'A grey square and a report.' });
    const answer = await send([image(samplePng(20, 20)), pdf(samplePdf(3))]);
    expect(answer.content[0]).toMatchObject({ text: 'A grey square and a report.' });
    // The PDF costs by its pages, not by its base64 length.
    expect(fake().requests[0]!.inputTokens).toBeGreaterThanOrEqual(3 * 3000);
  });

  it('refuses an image type the API does not take, an image over 5 MB and one over 8000 px', async () => {
    const tiff = await refusal(send([image(Buffer.from('II*\0'), 'image/tiff')]));
    expect(tiff.status).toBe(400);
    expect(tiff.message).toMatch(/messages\.0\.content\.0\.image\.source\.base64\.media_type: Input should be/);
    const big = Buffer.alloc(4 * 1024 * 1024);
    samplePng(10, 10).copy(big);
    expect((await refusal(send([image(big)]))).message).toMatch(
      /image exceeds 5 MB maximum: \d+ bytes > 5242880 bytes/,
    );
    expect((await refusal(send([image(samplePng(8001, 1))]))).message).toMatch(
      /image dimensions exceed max allowed size: 8000 pixels/,
    );
  });

  it('refuses an image whose data is not of the media_type given (a PNG sent as image/jpeg)', async () => {
    const wrong = await refusal(send([image(samplePng(20, 20), 'image/jpeg')]));
    expect(wrong.status).toBe(400);
    expect(wrong.message).toContain(
      'messages.0.content.0.image.source.base64: The image was specified using the image/jpeg media type, but the image appears to be a image/png image',
    );
  });

  it('refuses an encrypted PDF and more than 100 PDF pages in one request', async () => {
    expect((await refusal(send([pdf(samplePdf(1, 'x', true))]))).message).toMatch(/password protected or encrypted/);
    expect((await refusal(send([pdf(samplePdf(60)), pdf(samplePdf(41))]))).message).toMatch(
      /A maximum of 100 PDF pages may be provided/,
    );
  });

  it('answers 413 request_too_large to a body over 32 MB', async () => {
    const chunk = 'x'.repeat(1024 * 1024);
    const error = await refusal(send(Array.from({ length: 33 }, () => ({ type: 'text' as const, text: chunk }))));
    expect(error.status).toBe(413);
    expect(error.type).toBe('request_too_large');
  });
});
