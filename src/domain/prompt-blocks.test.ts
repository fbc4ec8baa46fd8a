import { describe, expect, it } from 'vitest';
import { noisyPng, samplePng } from '../../test/fixtures/sample-files';
import { promptAsText, promptContentBlocks, promptTurnMessages } from './prompt-blocks';

describe('a prompt’s messages as the turn', () => {
  it('sends an image, or an image resource, with the type its bytes show rather than the declared one', () => {
    const png = 'iVBORw0KGgo=';
    expect(promptContentBlocks({ type: 'image', mimeType: 'image/jpeg', data: png }, 'user')).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
    ]);
    expect(
      promptContentBlocks({ type: 'resource', uri: 'demo://a.jpg', mimeType: 'image/jpeg', blob: png }, 'user'),
    ).toEqual([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } }]);
  });

  it('keeps roles, text, images and embedded text resources as the Messages API takes them', () => {
    const messages = promptTurnMessages([
      { role: 'user', content: { type: 'text', text: 'Look at this' } },
      { role: 'user', content: { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
      { role: 'assistant', content: { type: 'text', text: 'I see a pixel.' } },
      { role: 'user', content: { type: 'resource', uri: 'demo://notes/1', mimeType: 'text/plain', text: 'Hello' } },
    ]);
    expect(messages).toEqual([
      { role: 'user', blocks: [{ type: 'text', text: 'Look at this' }] },
      {
        role: 'user',
        blocks: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }],
      },
      { role: 'assistant', blocks: [{ type: 'text', text: 'I see a pixel.' }] },
      { role: 'user', blocks: [{ type: 'text', text: 'Resource demo://notes/1 (text/plain):\nHello' }] },
    ]);
  });

  it('reads a text resource sent as a blob as text; a blob that is not UTF-8 is named', () => {
    const blob = Buffer.from('Résumé: 3 lines\nof notes').toString('base64');
    expect(
      promptContentBlocks({ type: 'resource', uri: 'demo://notes/2', mimeType: 'text/plain', blob }, 'user'),
    ).toEqual([{ type: 'text', text: 'Resource demo://notes/2 (text/plain):\nRésumé: 3 lines\nof notes' }]);
    const latin1 = Buffer.from([0x52, 0xe9, 0x73]).toString('base64');
    expect(
      promptContentBlocks({ type: 'resource', uri: 'demo://notes/3', mimeType: 'text/plain', blob: latin1 }, 'user'),
    ).toEqual([
      {
        type: 'text',
        text: "[A prompt's resource demo://notes/3 (text/plain, 3 B) was not sent: it is not UTF-8 text.]",
      },
    ]);
  });

  it('names what the API cannot take instead of sending it, with its type and size', () => {
    expect(promptContentBlocks({ type: 'audio', mimeType: 'audio/wav', data: 'AAAA' }, 'user')).toEqual([
      { type: 'text', text: "[A prompt's audio (audio/wav, 3 B) was not sent: the model API takes no audio.]" },
    ]);
    expect(
      promptContentBlocks(
        { type: 'resource', uri: 'demo://blob/2', mimeType: 'application/zip', blob: 'AAAA' },
        'user',
      ),
    ).toEqual([
      {
        type: 'text',
        text: "[A prompt's resource demo://blob/2 (application/zip, 3 B) was not sent: the model API does not take this type.]",
      },
    ]);
    // The API takes no image from the assistant.
    expect(promptContentBlocks({ type: 'image', mimeType: 'image/png', data: 'AAAA' }, 'assistant')[0]).toMatchObject({
      type: 'text',
    });
  });

  it('names an image the API would refuse (over 5 MB encoded, over 8000 px a side) instead of sending it', () => {
    const wide = samplePng(9000, 100).toString('base64');
    expect(promptContentBlocks({ type: 'image', mimeType: 'image/png', data: wide }, 'user')).toEqual([
      {
        type: 'text',
        text: "[A prompt's image (image/png, 1.2 KB) was not sent: it is 9000x100 px and the API takes images up to 8000x8000 px.]",
      },
    ]);
    const widest = samplePng(8000, 100).toString('base64');
    expect(promptContentBlocks({ type: 'image', mimeType: 'image/png', data: widest }, 'user')).toMatchObject([
      { type: 'image', source: { data: widest } },
    ]);

    const large = noisyPng(2000, 2000).toString('base64');
    expect(
      promptContentBlocks({ type: 'resource', uri: 'demo://big.png', mimeType: 'image/png', blob: large }, 'user'),
    ).toEqual([
      {
        type: 'text',
        text: "[A prompt's resource demo://big.png (image/png, 3.8 MB) was not sent: it is 5.1 MB once encoded, and the API takes images up to 5 MB.]",
      },
    ]);
  });

  it('goes into the message box as text only when it is the person’s text alone', () => {
    expect(
      promptAsText([
        { role: 'user', content: { type: 'text', text: 'First' } },
        { role: 'user', content: { type: 'text', text: 'Second' } },
      ]),
    ).toBe('First\n\nSecond');
    expect(
      promptAsText([
        { role: 'user', content: { type: 'text', text: 'Q' } },
        { role: 'assistant', content: { type: 'text', text: 'A' } },
      ]),
    ).toBeUndefined();
    expect(
      promptAsText([{ role: 'user', content: { type: 'image', mimeType: 'image/png', data: 'x' } }]),
    ).toBeUndefined();
  });
});
