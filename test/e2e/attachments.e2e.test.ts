/**
 * Attachments in the production build (issues #20 item 1, #22): files by the "Attach files" picker, paste and drop,
 * shown as chips with name and size; refusals that name the size and the limit, with nothing typed lost; a server's
 * resource attached from the composer's `@` list and a template filled in the servers manager with the server's
 * completions. What the model got is read from the requests the contract fake recorded.
 */
import { mkdir, readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import { startResourceMcpServer, type ResourceMcpServer } from '../fixtures/resource-mcp-server';
import { noisyPng, samplePdf, samplePng } from '../fixtures/sample-files';
import { appServersConfig, saveKeyAndBaseUrl, startModelRig, type ModelRig } from './app-page';
import { openNewThread, switchServerOn } from './app-steps';

/** A file name longer than a chip shows. */
const LONG_NAME = 'quarterly-figures-for-the-board-meeting-in-december-final-version-2-approved-by-all.csv';
const SHOTS = 'test-results/screenshots';
let files: ResourceMcpServer | undefined;
let rig: ModelRig | undefined;
let api: FakeAnthropic | undefined;
let page: Page;
let pageErrors: string[] = [];

const box = () => page.getByRole('textbox', { name: 'Message' });
const chips = () => page.getByRole('list', { name: 'Attachments to send' });
const messages = () => page.getByRole('list', { name: 'Messages' });
const alert = () => page.locator('.attachment-errors');

async function pick(...chosen: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: 'Attach files' }).click(),
  ]);
  await chooser.setFiles(chosen);
}

/** Dispatches a paste (into the box) or a drop (on the composer) carrying one text file, as the browser would. */
async function pasteOrDrop(kind: 'paste' | 'drop', name: string, text: string): Promise<void> {
  await page.evaluate(
    ([kind, name, text]) => {
      const data = new DataTransfer();
      data.items.add(new File([text], name, { type: 'text/plain' }));
      const target = document.querySelector('textarea[aria-label="Message"]')!;
      const event =
        kind === 'paste'
          ? new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true })
          : new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true });
      target.dispatchEvent(event);
    },
    [kind, name, text] as const,
  );
}

describe('attachments in the chat', () => {
  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    files = await startResourceMcpServer(3);
    const appConfig = appServersConfig([{ id: 'files', name: 'Files', url: files.url }]);
    rig = await startModelRig({ appConfig });
    ({ api, page, pageErrors } = rig);
    await saveKeyAndBaseUrl(page, 'sk-ant-attach-e2e', api.url);
  });

  afterAll(async () => {
    await rig?.close();
    await files?.stop();
  });

  it('attaches files and a resource, refuses what the API cannot take, and sends them as the API blocks', async () => {
    await openNewThread(page);
    await switchServerOn(page, 'Files');

    await box().fill('What do these show?');
    await pick(
      { name: 'chart.png', mimeType: 'image/png', buffer: samplePng(40, 20) },
      { name: 'report.pdf', mimeType: 'application/pdf', buffer: samplePdf(2) },
    );
    await chips().getByText('chart.png').waitFor();
    expect(await chips().locator('li').allTextContents()).toEqual([
      expect.stringMatching(/^chart\.png\s*image · \d+ B/),
      expect.stringMatching(/^report\.pdf\s*PDF · \d+(\.\d)? (B|KB)/),
    ]);

    // Refused before sending, each with its own reason; the text typed stays. (An image too large that the browser can
    // read is made smaller instead: the next test.)
    const huge = Buffer.concat([samplePng(10, 10).subarray(0, 33), Buffer.alloc(4_500_000)]);
    await pick(
      { name: 'huge.png', mimeType: 'image/png', buffer: huge },
      { name: 'locked.pdf', mimeType: 'application/pdf', buffer: samplePdf(1, 'secret', true) },
    );
    await alert()
      .getByText(/huge\.png is 4\.3 MB; an image can be at most 3\.75 MB/)
      .waitFor();
    await alert()
      .getByText('locked.pdf is an encrypted or password-protected PDF; the API takes only standard PDFs.')
      .waitFor();
    expect(await box().inputValue()).toBe('What do these show?');
    await page.screenshot({ path: `${SHOTS}/attachments-refused.png` });

    // A paste and a drop of files add them too; a paste of 21 files is refused as a whole.
    await pasteOrDrop('paste', 'pasted.txt', 'pasted words');
    await pasteOrDrop('drop', LONG_NAME, 'a,b\n1,2\n');
    await chips().getByText(LONG_NAME).waitFor();
    await page.evaluate(() => {
      const data = new DataTransfer();
      for (let i = 0; i < 21; i++) data.items.add(new File(['x'], `f${i}.txt`, { type: 'text/plain' }));
      document
        .querySelector('textarea[aria-label="Message"]')!
        .dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await alert()
      .getByText(
        /21 files were offered, but a message can carry at most 20 attachments \(16 more fit\); none of them was added\./,
      )
      .waitFor();
    expect(await chips().locator('li').count()).toBe(4);

    // A server resource from the composer's @ list: attached, and the @ text taken out of the box.
    await box().press('End');
    await box().pressSequentially(' @today');
    await page.getByRole('option', { name: /Today's notes/ }).waitFor({ timeout: 15_000 });
    await box().press('Enter');
    await chips().getByText('today.txt').waitFor({ timeout: 15_000 });
    expect((await box().inputValue()).trim()).toBe('What do these show?');
    expect(await chips().locator('li', { hasText: 'today.txt' }).textContent()).toMatch(/text · 19 B/);
    await page.screenshot({ path: `${SHOTS}/attachments-chips.png` });

    api!.script({ text: 'A chart, a report, notes and a table.' });
    await box().press('Enter');
    await messages().getByText('A chart, a report, notes and a table.').waitFor({ timeout: 30_000 });
    const content = api!.requests.at(-1)!.body.messages[0]!.content as unknown as Record<string, unknown>[];
    expect(content.map((b) => b.type)).toEqual(['text', 'image', 'document', 'text', 'text', 'text', 'text']);
    expect(content[1]).toMatchObject({
      source: { media_type: 'image/png', data: samplePng(40, 20).toString('base64') },
    });
    expect(content[2]).toMatchObject({ source: { media_type: 'application/pdf' }, title: 'report.pdf' });
    expect(content[3]!.text).toBe('Attached file pasted.txt (text/plain, 12 B):\n\npasted words');
    expect(content[5]!.text).toBe(
      'Attached resource notes://today of Files (text/plain, 19 B):\n\nBuy milk. Call Ana.',
    );
    expect(content[6]).toMatchObject({ type: 'text', text: 'What do these show?' });

    // The sent message shows its attachments; the composer is empty again.
    const sent = page.getByRole('list', { name: 'Attachments' });
    await sent.getByText('report.pdf').waitFor();
    expect(await sent.locator('li').count()).toBe(5);
    expect(await chips().count()).toBe(0);
    // Each sent attachment's bytes come back from this browser's storage: an image as a thumbnail, any as a download.
    const thumbnail = sent.locator('li', { hasText: 'chart.png' }).locator('img');
    await expect
      .poll(() => thumbnail.evaluate((img) => (img as HTMLImageElement).naturalWidth), { timeout: 15_000 })
      .toBe(40);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      sent.getByRole('button', { name: 'Download report.pdf' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('report.pdf');
    expect((await readFile(await download.path())).equals(samplePdf(2))).toBe(true);
    // Every attachment of the sent message is in view, none behind a scroll; a long name ends in "…" in its chip. On a
    // phone too, where the chips take several lines.
    const desktop = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    await sent.scrollIntoViewIfNeeded();
    const fit = await sent.evaluate((list) => {
      const box = list.getBoundingClientRect();
      const name = [...list.querySelectorAll('.attachment-name')].find((n) => n.textContent?.endsWith('.csv'))!;
      return {
        scrolls: list.scrollHeight > list.clientHeight + 1,
        outside: [...list.querySelectorAll('li')].filter((li) => {
          const r = li.getBoundingClientRect();
          return r.bottom > box.bottom + 1 || r.right > box.right + 1;
        }).length,
        nameClipped: name.scrollWidth > name.clientWidth,
      };
    });
    expect(fit).toEqual({ scrolls: false, outside: 0, nameClipped: true });
    await page.screenshot({ path: `${SHOTS}/attachments-sent-phone.png` });
    await page.setViewportSize(desktop);
  });

  it('an image over the API’s limits (bytes or pixels) is made smaller to fit, says so, and is sent as it is now', async () => {
    await openNewThread(page);
    await box().fill('Look at these');
    const noise = noisyPng(2200, 2000);
    expect(noise.length).toBeGreaterThan(4_000_000);
    // The page's image decoding waits for the test, so what the person sees meanwhile can be checked.
    await page.evaluate(() => {
      const decode = window.createImageBitmap.bind(window);
      const gate = new Promise<void>((resolve) => Object.assign(window, { openImageGate: resolve }));
      window.createImageBitmap = (async (...args: Parameters<typeof decode>) => {
        await gate;
        return decode(...args);
      }) as typeof window.createImageBitmap;
    });
    const requestsBefore = api!.requests.length;
    await pick(
      { name: 'photo.png', mimeType: 'image/png', buffer: noise },
      { name: 'banner.png', mimeType: 'image/png', buffer: samplePng(9000, 100) },
    );
    // While they are made smaller the tray says so, and Send waits: the message would go without them.
    await page
      .getByRole('status')
      .getByText("Making photo.png smaller to fit the API's limits… Send waits for it.")
      .waitFor();
    expect(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
    await box().press('Enter');
    expect(await box().inputValue()).toBe('Look at these');
    await page.evaluate(() => (window as unknown as { openImageGate: () => void }).openImageGate());
    const notes = page.locator('.attachment-notes');
    await notes
      .getByText(
        /^photo\.png was made smaller to fit the API's limits, as WebP: 2000 × 1818 px, [\d.]+ (KB|MB) \(it was 2200 × 2000 px, 4\.\d MB\)\.$/,
      )
      .waitFor();
    await notes
      .getByText(
        /^banner\.png was made smaller to fit the API's limits, as WebP: 2000 × 22 px, [\d.]+ (B|KB) \(it was 9000 × 100 px, [\d.]+ KB\)\.$/,
      )
      .waitFor();
    expect(await alert().count()).toBe(0);
    expect(api!.requests.length).toBe(requestsBefore);
    await page.screenshot({ path: `${SHOTS}/attachments-shrunk.png` });
    api!.script({ text: 'Noise and a grey banner.' });
    await box().press('Enter');
    await messages().getByText('Noise and a grey banner.').waitFor({ timeout: 30_000 });
    const content = api!.requests.at(-1)!.body.messages[0]!.content as unknown as Record<string, unknown>[];
    const images = content.filter((b) => b.type === 'image') as { source: { media_type: string; data: string } }[];
    expect(images.map((i) => i.source.media_type)).toEqual(['image/webp', 'image/webp']);
    expect(images.every((i) => i.source.data.length <= 5 * 1024 * 1024)).toBe(true);
  });

  it('sends a PNG saved as .jpg as the PNG it is (the API refuses an image of another type than it says)', async () => {
    await openNewThread(page);
    await box().fill('And this one?');
    await pick({ name: 'actually-png.jpg', mimeType: 'image/jpeg', buffer: samplePng(30, 30) });
    await chips().getByText('actually-png.jpg').waitFor();
    api!.script({ text: 'A small grey square.' });
    await box().press('Enter');
    await messages().getByText('A small grey square.').waitFor({ timeout: 30_000 });
    const content = api!.requests.at(-1)!.body.messages[0]!.content as unknown as Record<string, unknown>[];
    expect(content[1]).toMatchObject({ type: 'image', source: { media_type: 'image/png' } });
  });

  it('attached files survive a reload, still in the tray, and are sent with the message then; sent, they do not come back', async () => {
    await openNewThread(page);
    const threadId = await page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('thread'));
    expect(threadId).toBeTruthy();
    /** How many attachments are stored for the thread's box (IndexedDB's meta store), once they have settled. */
    const stored = () =>
      page.evaluate(
        (key) =>
          new Promise<number | undefined>((resolve, reject) => {
            const request = indexedDB.open('mcp-agent');
            request.onerror = () => reject(new Error('open failed'));
            request.onsuccess = () => {
              const get = request.result.transaction('meta').objectStore('meta').get(key);
              get.onsuccess = () => {
                resolve((get.result as { value?: { items?: unknown[] } } | undefined)?.value?.items?.length);
                request.result.close();
              };
            };
          }),
        `draft-attachments:${threadId}`,
      );
    const chart = samplePng(24, 12);
    await pick(
      { name: 'kept-chart.png', mimeType: 'image/png', buffer: chart },
      { name: 'kept-notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Notes kept across a reload') },
    );
    await chips().getByText('kept-notes.txt').waitFor();
    await expect.poll(stored).toBe(2);

    await page.reload();
    await page.getByRole('heading', { name: 'New thread', exact: true }).waitFor();
    await chips().getByText('kept-notes.txt').waitFor();
    expect(await chips().locator('li').allTextContents()).toEqual([
      expect.stringMatching(/^kept-chart\.png\s*image · \d+ B/),
      expect.stringMatching(/^kept-notes\.txt\s*text · 26 B/),
    ]);
    expect(await alert().count()).toBe(0);

    await box().fill('What did I attach before the reload?');
    api!.script({ text: 'A chart and your notes.' });
    await box().press('Enter');
    await messages().getByText('A chart and your notes.').waitFor({ timeout: 30_000 });
    const content = api!.requests.at(-1)!.body.messages[0]!.content as unknown as Record<string, unknown>[];
    expect(content.map((b) => b.type)).toEqual(['text', 'image', 'text', 'text']);
    expect(content[1]).toMatchObject({ source: { media_type: 'image/png', data: chart.toString('base64') } });
    expect(content[2]!.text).toBe('Attached file kept-notes.txt (text/plain, 26 B):\n\nNotes kept across a reload');
    expect(content[3]).toMatchObject({ type: 'text', text: 'What did I attach before the reload?' });
    expect(await chips().count()).toBe(0);

    // Sent: forgotten in storage at once, so the next reload shows the sent message and an empty tray.
    await expect.poll(stored).toBeUndefined();
    await page.reload();
    await messages().getByText('A chart and your notes.').waitFor();
    expect(await chips().count()).toBe(0);
  });

  it('Edit shows the message’s attachments, each can be removed, and the edit goes without the ones removed', async () => {
    await openNewThread(page);
    await box().fill('Read both notes');
    await pick(
      { name: 'keep-me.txt', mimeType: 'text/plain', buffer: Buffer.from('KEPT NOTE') },
      { name: 'drop-me.txt', mimeType: 'text/plain', buffer: Buffer.from('DROPPED NOTE') },
    );
    await chips().getByText('drop-me.txt').waitFor();
    api!.script({ text: 'Two notes read.' }, { text: 'One note read.' });
    await box().press('Enter');
    await messages().getByText('Two notes read.').waitFor({ timeout: 30_000 });
    await messages().getByRole('button', { name: 'Edit' }).click();
    const kept = page.getByRole('list', { name: 'Attachments sent with the edit' });
    expect(await kept.locator('li .attachment-name').allTextContents()).toEqual(['keep-me.txt', 'drop-me.txt']);
    await page.screenshot({ path: `${SHOTS}/attachments-edit.png` });
    await kept.getByRole('button', { name: 'Remove drop-me.txt' }).click();
    // The chip's button goes; the caret goes back to the text, not to the page.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Edit your message');
    await page.getByRole('textbox', { name: 'Edit your message' }).fill('Read the note');
    await page.getByRole('button', { name: 'Send edit' }).click();
    await messages().getByText('One note read.').waitFor({ timeout: 30_000 });
    const sent = JSON.stringify(api!.requests.at(-1)!.body.messages[0]!.content);
    expect(sent).toContain('KEPT NOTE');
    expect(sent).not.toContain('DROPPED NOTE');
    const shown = messages().getByRole('list', { name: 'Attachments' });
    expect(await shown.locator('.attachment-name').allTextContents()).toEqual(['keep-me.txt']);
    expect(pageErrors).toEqual([]);
  });

  it('a file dropped on the messages is attached; dropped elsewhere it is ignored, and never opens in place of the app', async () => {
    await openNewThread(page);
    const dropOn = (selector: string, name: string) =>
      page.evaluate(
        ([selector, name]) => {
          const data = new DataTransfer();
          data.items.add(new File(['dropped words'], name, { type: 'text/plain' }));
          const target = document.querySelector(selector)!;
          const over = new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true });
          const drop = new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true });
          // dispatchEvent answers false when the page took the event: the browser's own handling (opening the file) is off.
          return { overTaken: !target.dispatchEvent(over), dropTaken: !target.dispatchEvent(drop) };
        },
        [selector, name] as const,
      );
    expect(await dropOn('section.chat', 'on-the-chat.txt')).toEqual({ overTaken: true, dropTaken: true });
    await chips().getByText('on-the-chat.txt').waitFor();
    expect(await dropOn('header.shell-header', 'on-the-header.txt')).toEqual({ overTaken: true, dropTaken: true });
    expect(await chips().locator('li').allTextContents()).toEqual([expect.stringMatching(/^on-the-chat\.txt/)]);
    await chips()
      .getByRole('button', { name: /Remove on-the-chat\.txt/ })
      .click();
  });

  it('removing a chip by keyboard moves the focus to the chip in its place, then to the message box', async () => {
    const drop = (name: string) =>
      page.evaluate((name) => {
        const data = new DataTransfer();
        data.items.add(new File(['words'], name, { type: 'text/plain' }));
        document
          .querySelector('section.chat')!
          .dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      }, name);
    await drop('first.txt');
    await chips().getByText('first.txt').waitFor();
    await drop('second.txt');
    await chips().getByText('second.txt').waitFor();
    const focusedName = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    await chips().getByRole('button', { name: 'Remove first.txt' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(focusedName).toBe('Remove second.txt');
    await page.keyboard.press('Enter');
    await expect.poll(() => box().evaluate((e) => e === document.activeElement)).toBe(true);
  });

  it('browses a server’s resources in the servers manager and fills a template with its completions', async () => {
    await page.getByRole('button', { name: 'Servers', exact: true }).click();
    const item = page.getByRole('listitem', { name: 'Files' });
    await item.locator('summary', { hasText: 'Resources' }).click();
    const list = item.getByRole('list', { name: 'Resources of Files' });
    await list.getByText('docs://report.pdf').waitFor({ timeout: 15_000 });
    expect(await list.locator('li').count()).toBe(6); // Five resources over two pages, and the template.
    await item.getByRole('button', { name: 'Fill in Weather of a city' }).click();
    const form = item.getByRole('form', { name: 'Attach Weather of a city' });
    // The focus is in its first field: typing goes there.
    await page.keyboard.type('Li');
    expect(await form.getByLabel('city').inputValue()).toBe('Li');
    await expect
      .poll(() => form.locator('datalist option').evaluateAll((o) => o.map((e) => (e as HTMLOptionElement).value)), {
        timeout: 15_000,
      })
      .toEqual(['Lisbon', 'Lima']);
    await form.getByLabel('city').fill('Lima');
    await form.getByRole('button', { name: 'Attach' }).click();
    // Named by the template and the value, not by the URI's last segment ("today").
    await chips().getByText('Weather of a city (city: Lima)').waitFor({ timeout: 15_000 });
    expect(await chips().locator('li').textContent()).toMatch(/text · 17 B/);
    expect(pageErrors).toEqual([]);
  });
});
