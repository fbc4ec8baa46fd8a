import type { Message } from '../../../domain/message';

/** A line of text (1.5 × 16 px), a line of code (1.5 × 0.85 rem), a table row, and a paragraph's margin. */
const TEXT_LINE_PX = 24;
const CODE_LINE_PX = 20;
const TABLE_ROW_PX = 37;
const BLOCK_GAP_PX = 16;
/** A code block's frame, and its greatest height (styles.css: `max-height: 24rem`, it scrolls inside past that). */
const CODE_FRAME_PX = 40;
const CODE_MAX_PX = 420;
/** The row's padding, the message's own, and its actions (Copy, Edit). */
const ROW_BASE_PX = 40;
const TOOL_CARD_PX = 48;
const THINKING_PX = 40;
const ATTACHMENTS_PX = 90;
/** About how many pixels a character of body text takes. */
const CHAR_PX = 8.5;

/**
 * About how tall a message's row will be at `width` pixels, from its text alone (lines, paragraphs, code fences,
 * tables, tool cards), before it is rendered and measured. A close guess lets a long thread open at its end showing
 * the rows that will stay there, and keeps the scrollbar from jumping as rows are measured.
 */
export function estimateRowHeight(message: Message, width: number): number {
  const charsPerLine = Math.max(20, Math.floor(width / CHAR_PX));
  const kept = estimates.get(message);
  if (kept?.charsPerLine === charsPerLine) return kept.height;
  const height = Math.round(rowHeight(message, charsPerLine));
  estimates.set(message, { charsPerLine, height });
  return height;
}

/** Estimates by message (a message is replaced, never changed, when it changes) at the width they were made for. */
const estimates = new WeakMap<Message, { charsPerLine: number; height: number }>();

function rowHeight(message: Message, charsPerLine: number): number {
  let height = ROW_BASE_PX + (message.attachments?.length ? ATTACHMENTS_PX : 0);
  for (const block of message.blocks) {
    if (block.type === 'text') height += textHeight(block.text, charsPerLine);
    else if (block.type === 'thinking') height += THINKING_PX;
    else if (block.type === 'tool_use' && !block.caller) height += TOOL_CARD_PX;
    else if (block.type === 'server_tool_use') height += TOOL_CARD_PX;
  }
  return height;
}

/** The height of markdown (or plain) text: wrapped lines, paragraph gaps, code fences capped, table rows. */
function textHeight(text: string, charsPerLine: number): number {
  let height = 0;
  let code: number | undefined; // Lines of the open fence.
  let isInParagraph = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      if (code === undefined) code = 0;
      else {
        height += Math.min(CODE_FRAME_PX + code * CODE_LINE_PX, CODE_MAX_PX) + BLOCK_GAP_PX;
        code = undefined;
      }
      isInParagraph = false;
    } else if (code !== undefined) code += 1;
    else if (line.trim() === '') isInParagraph = false;
    else {
      if (!isInParagraph) height += BLOCK_GAP_PX;
      isInParagraph = true;
      height += line.trimStart().startsWith('|') ? TABLE_ROW_PX : Math.ceil(line.length / charsPerLine) * TEXT_LINE_PX;
    }
  }
  if (code !== undefined) height += Math.min(CODE_FRAME_PX + code * CODE_LINE_PX, CODE_MAX_PX);
  return height;
}
