import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { AttachmentRef } from '../../src/domain/attachment';
import { sendMessage } from '../../src/turns/turn-runner';
import { startTestApp, type TestApp } from '../fakes/test-app';
import { samplePdf, samplePng } from '../fixtures/sample-files';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ apiKey: 'sk-ant-test-key' });
});
afterAll(async () => {
  await app?.close();
});

const ref = (id: string, name: string, mimeType: string, kind: AttachmentRef['kind'], size: number): AttachmentRef => ({
  id,
  name,
  mimeType,
  kind,
  size,
  source: { type: 'file' },
});
const outgoing = (r: AttachmentRef, bytes: Buffer) => ({
  ref: r,
  blob: new Blob([new Uint8Array(bytes)], { type: r.mimeType }),
});
const options = () => ({ askApproval: async () => 'allow-once' as const, signal: new AbortController().signal });

describe('a message with attachments: stored as blobs, sent as the API blocks', () => {
  it('sends image, PDF and text as their blocks, names an unsupported file, and keeps sending them in later turns', async () => {
    const { storage } = app.opened;
    const thread = await storage.threads.create(app.deps.profileId, { title: 'Files' });
    const png = samplePng(32, 16);
    const pdf = samplePdf(2);
    const text = Buffer.from('alpha,beta\n1,2\n');
    const docx = Buffer.from('PK\x03\x04 not sent');
    const attachments = [
      outgoing(ref('att-png', 'chart.png', 'image/png', 'image', png.length), png),
      outgoing(ref('att-pdf', 'report.pdf', 'application/pdf', 'pdf', pdf.length), pdf),
      outgoing(ref('att-csv', 'table.csv', 'text/csv', 'text', text.length), text),
      outgoing(ref('att-docx', 'memo.docx', 'application/vnd.openxmlformats', 'other', docx.length), docx),
    ];
    app.api.script({ text: 'Got them.' }, { text: 'Still there.' });
    expect(await sendMessage(app.deps, thread.id, 'What is in these?', { ...options(), attachments })).toEqual({
      status: 'done',
    });

    const first = app.api.requests[0]!.body.messages[0]!;
    const content = first.content as unknown as { type: string; [k: string]: unknown }[];
    expect(content.map((b) => b.type)).toEqual(['text', 'image', 'document', 'text', 'text', 'text']);
    expect(content[1]).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') },
    });
    expect(content[2]).toMatchObject({
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: pdf.toString('base64') },
      title: 'report.pdf',
    });
    expect(content[3]).toEqual({
      type: 'text',
      text: `Attached file table.csv (text/csv, 15 B):\n\nalpha,beta\n1,2\n`,
    });
    expect(content[4]!.text).toMatch(/memo\.docx .*named only; its contents were not sent/);
    expect(content[5]).toMatchObject({ type: 'text', text: 'What is in these?' });

    // The message record names the attachments; the bytes are blobs in their own store, not in the message.
    const stored = (await storage.messages.list(thread.id)).items[0]!;
    expect(stored.attachments?.map((a) => a.name)).toEqual(['chart.png', 'report.pdf', 'table.csv', 'memo.docx']);
    expect(JSON.stringify(stored)).not.toContain(png.toString('base64'));
    const blob = await storage.attachments.get('att-pdf');
    expect(Buffer.from(await blob!.arrayBuffer()).equals(pdf)).toBe(true);

    // The next turn sends the history with the attachments again.
    await sendMessage(app.deps, thread.id, 'And now?', options());
    const again = app.api.requests[1]!.body.messages[0]!.content as { type: string }[];
    expect(again.map((b) => b.type)).toEqual(['text', 'image', 'document', 'text', 'text', 'text']);

    // Deleting the thread deletes the bytes.
    await storage.threads.delete(thread.id);
    expect(await storage.attachments.get('att-pdf')).toBeUndefined();
  });

  it('leaves older PDFs out of a request once the thread holds more than 100 pages', async () => {
    // A model with a 1M-token window, so the pages, not the window, are the limit.
    const wide = await startTestApp({ apiKey: 'sk-ant-test-key', api: { contextWindowTokens: 1_000_000 } });
    onTestFinished(() => wide.close());
    const { storage } = wide.opened;
    const thread = await storage.threads.create(wide.deps.profileId, { title: 'Books' });
    const book = samplePdf(60);
    wide.api.script({ text: 'one' }, { text: 'two' });
    await sendMessage(wide.deps, thread.id, 'First book', {
      ...options(),
      attachments: [outgoing(ref('book-1', 'first.pdf', 'application/pdf', 'pdf', book.length), book)],
    });
    await sendMessage(wide.deps, thread.id, 'Second book', {
      ...options(),
      attachments: [outgoing(ref('book-2', 'second.pdf', 'application/pdf', 'pdf', book.length), book)],
    });
    const request = wide.api.requests.at(-1)!;
    expect(request.isCompacted).toBe(false);
    expect(request.inputTokens).toBeGreaterThan(60 * 3000);
    const sent = request.body.messages.flatMap((m) => m.content as { type: string; text?: string }[]);
    expect(sent.filter((b) => b.type === 'document')).toHaveLength(1);
    expect(sent.find((b) => b.text?.includes('first.pdf'))?.text).toMatch(
      /left out of this request: a request carries at most 100 PDF pages/,
    );
  });
});
