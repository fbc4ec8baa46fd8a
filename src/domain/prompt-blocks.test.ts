import { describe, expect, it } from 'vitest';
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
    // A PNG's signature and IHDR chunk: 9000 x 100 px.
    const header = Buffer.alloc(33);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
    header.writeUInt32BE(13, 8);
    header.write('IHDR', 12, 'ascii');
    header.writeUInt32BE(9000, 16);
    header.writeUInt32BE(100, 20);
    const wide = header.toString('base64');
    expect(promptContentBlocks({ type: 'image', mimeType: 'image/png', data: wide }, 'user')).toEqual([
      {
        type: 'text',
        text: "[A prompt's image (image/png, 33 B) was not sent: it is 9000x100 px and the API takes images up to 8000x8000 px.]",
      },
    ]);
    header.writeUInt32BE(8000, 16);
    expect(
      promptContentBlocks({ type: 'image', mimeType: 'image/png', data: header.toString('base64') }, 'user'),
    ).toMatchObject([{ type: 'image' }]);

    const large = Buffer.concat([header, Buffer.alloc(4 * 1024 * 1024)]).toString('base64');
    expect(
      promptContentBlocks({ type: 'resource', uri: 'demo://big.png', mimeType: 'image/png', blob: large }, 'user'),
    ).toEqual([
      {
        type: 'text',
        text: "[A prompt's resource demo://big.png (image/png, 4.0 MB) was not sent: the API takes images up to 5 MB once encoded.]",
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
