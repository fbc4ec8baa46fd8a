import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AttachmentRef, AttachmentSource } from '../domain/attachment';
import {
  base64Length,
  kindOf,
  MAX_ATTACHMENTS,
  MAX_IMAGE_BASE64,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_SIDE,
} from '../domain/attachment-kind';
import { attachmentsProblem, checkAttachment } from '../domain/attachment-check';
import { formatBytes } from '../domain/byte-size';
import { imageSize, imageTypeOf } from '../domain/media-probe';
import type { ShrunkImage } from '../platform/image-shrink';
import type { OutgoingAttachment } from '../turns/turn-runner';
import { threadBox, type PendingItems } from './draft';

/** An attachment in the composer, not sent yet: what the message will record, its bytes, and a PDF's pages. */
export interface PendingAttachment extends OutgoingAttachment {
  readonly pages?: number;
  /** What was done to it before it was added (an image shrunk to fit the API's limits), said under the chips. */
  readonly note?: string;
}

/** The composer's attachments and why the last ones offered were refused. */
export interface AttachmentDraftState {
  readonly items: readonly PendingAttachment[];
  /** One line per refused file or resource, naming it, its size and the limit. */
  readonly errors: readonly string[];
  /** Files offered and still being read (Send waits for them: they would miss the message). */
  readonly reading?: number;
  /** The images among them being made smaller now, by name (it takes a moment; the tray says so). */
  readonly shrinking?: readonly string[];
}

export type AttachmentDraft = StoreApi<AttachmentDraftState>;

/** The composer's attachments with the source of their ids. */
export interface AttachmentDraftHandle {
  readonly store: AttachmentDraft;
  readonly newId: () => string;
  /** Makes an image too large for the API smaller (in the browser); undefined where it cannot. */
  readonly shrinkImage?: (bytes: Uint8Array, mimeType: string, maxBytes: number) => Promise<ShrunkImage | undefined>;
}

/** A file, a pasted image or a resource's contents offered as an attachment. */
export interface OfferedAttachment {
  readonly name: string;
  readonly mimeType: string;
  readonly bytes: Uint8Array;
  readonly source: AttachmentSource;
  /** Replaces the attachment with this id (a subscribed resource that changed). */
  readonly replaces?: string;
  /** Said under the chips once it is added. */
  readonly note?: string;
}

/** An empty set of attachments. */
let idCount = 0;
/** An id for an attachment's blob, unique enough across tabs (time, a counter and randomness). */
const attachmentId = () =>
  `att-${Date.now().toString(36)}-${(++idCount).toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

export function createAttachmentDraft(
  newId: () => string = attachmentId,
  shrinkImage?: AttachmentDraftHandle['shrinkImage'],
): AttachmentDraftHandle {
  return {
    store: createStore<AttachmentDraftState>(() => ({ items: [], errors: [] })),
    newId,
    ...(shrinkImage ? { shrinkImage } : {}),
  };
}

/** The attachments of one thread's draft (see threadBox: it stays with its thread when another is opened). */
type Box = PendingItems<PendingAttachment>;

/**
 * Reads the person's files (picker, drop, paste) and offers them to the draft of the thread they were given in, even
 * when another is open by the time they are read; more than the limit are refused before reading.
 */
export async function addFiles(draft: AttachmentDraftHandle, files: readonly File[]): Promise<void> {
  const box = threadBox(draft.store);
  const room = MAX_ATTACHMENTS - box.getState().items.length;
  if (files.length > room) {
    box.setState({
      errors: [
        `${files.length.toLocaleString('en-US')} files were offered, but a message can carry at most ${MAX_ATTACHMENTS} attachments${room < MAX_ATTACHMENTS ? ` (${Math.max(room, 0)} more fit)` : ''}; none of them was added.`,
      ],
    });
    return;
  }
  const change = (by: number) => box.setState((s) => ({ reading: Math.max(0, (s.reading ?? 0) + by) }));
  change(files.length);
  try {
    const read = await Promise.all(
      files.map(async (file) => ({
        name: file.name || 'pasted file',
        mimeType: file.type,
        bytes: new Uint8Array(await file.arrayBuffer()),
        source: { type: 'file' as const },
      })),
    );
    // One image decoded at a time: ten phone photos decoded at once would hold a gigabyte of pixels.
    const offered: OfferedAttachment[] = [];
    for (const item of read) offered.push(await fittedImage(draft, box, item));
    offerAttachments(draft, offered, box);
  } finally {
    change(-files.length);
  }
}

/**
 * A photo or screenshot over the API's limits (3.75 MB, 8000 px) made smaller, the way the API would see it anyway;
 * the file as it is when it fits, when it is not an image, or when it cannot be made smaller (then the check says why).
 */
async function fittedImage(
  draft: AttachmentDraftHandle,
  box: Box,
  item: OfferedAttachment,
): Promise<OfferedAttachment> {
  if (kindOf(item.name, item.mimeType) !== 'image' || !draft.shrinkImage) return item;
  // Only a readable still image too large in bytes or pixels: an unreadable one, or an animated GIF (it would keep
  // one frame), is refused with its reason instead.
  const pixels = imageSize(item.bytes);
  if (!pixels || imageTypeOf(item.bytes) === 'image/gif') return item;
  const isTooLarge =
    base64Length(item.bytes.length) > MAX_IMAGE_BASE64 ||
    pixels.width > MAX_IMAGE_SIDE ||
    pixels.height > MAX_IMAGE_SIDE;
  if (!isTooLarge) return item;
  const setShrinking = (names: (now: readonly string[]) => readonly string[]) =>
    box.setState((s) => ({ shrinking: names(s.shrinking ?? []) }));
  setShrinking((now) => [...now, item.name]);
  const shrunk = await draft
    .shrinkImage(item.bytes, item.mimeType, MAX_IMAGE_BYTES)
    .finally(() => setShrinking((now) => (now.includes(item.name) ? now.toSpliced(now.indexOf(item.name), 1) : now)));
  if (!shrunk) return item;
  const format = shrunk.mimeType === 'image/webp' ? 'WebP' : 'JPEG';
  return {
    ...item,
    bytes: shrunk.bytes,
    mimeType: shrunk.mimeType,
    note: `${item.name} was made smaller to fit the API's limits, as ${format}: ${shrunk.width} × ${shrunk.height} px, ${formatBytes(shrunk.bytes.length)} (it was ${shrunk.fromWidth} × ${shrunk.fromHeight} px, ${formatBytes(item.bytes.length)}).`,
  };
}

/**
 * Checks each offered attachment and the message's total; adds those that fit to `box` (the open thread's draft unless
 * said), and says why the others do not.
 */
export function offerAttachments(
  draft: AttachmentDraftHandle,
  offered: readonly OfferedAttachment[],
  box: Box = threadBox(draft.store),
): void {
  const errors: string[] = [];
  let items = [...box.getState().items];
  for (const item of offered) {
    const kind = kindOf(item.name, item.mimeType);
    const label = item.source.type === 'resource' ? `${item.source.uri} (${item.source.serverName})` : item.name;
    const checked = checkAttachment(label, kind, item.bytes);
    if (checked.problem) {
      errors.push(checked.problem);
      continue;
    }
    const ref: AttachmentRef = {
      // A changed resource keeps its attachment's id: it is the same attachment, and is followed by that id.
      id: item.replaces ?? draft.newId(),
      name: item.name,
      mimeType: item.mimeType || 'application/octet-stream',
      kind,
      size: item.bytes.length,
      source: item.source,
    };
    const pending: PendingAttachment = {
      ref,
      blob: new Blob([item.bytes as Uint8Array<ArrayBuffer>], { type: ref.mimeType }),
      ...(checked.pages !== undefined ? { pages: checked.pages } : {}),
      ...(item.note ? { note: item.note } : {}),
    };
    const next = item.replaces ? items.map((i) => (i.ref.id === item.replaces ? pending : i)) : [...items, pending];
    const problem = attachmentsProblem(next.map((i) => ({ kind: i.ref.kind, size: i.ref.size, pages: i.pages })));
    if (problem) {
      errors.push(`${label} was not added: ${problem}`);
      continue;
    }
    items = next;
  }
  box.setState({ items, errors });
}

/** Takes an attachment out of the message. */
export function removeAttachment(draft: AttachmentDraft, id: string): void {
  draft.setState({ items: draft.getState().items.filter((i) => i.ref.id !== id), errors: [] });
}

/** Hides the refusal messages. */
export function dismissAttachmentErrors(draft: AttachmentDraft): void {
  draft.setState({ errors: [] });
}

/** The attachments to send, cleared in the same step so they go out once. */
export function takeAttachments(draft: AttachmentDraft): PendingAttachment[] {
  const { items } = draft.getState();
  draft.setState({ items: [], errors: [] });
  return [...items];
}
