// Prompt-cache accounting of the fake Anthropic API, computed the way the prompt caching page documents it, so tests
// measure caching instead of assuming it. https://platform.claude.com/docs/en/build-with-claude/prompt-caching
import { createHash } from 'node:crypto';
import { fakePdfPages } from './fake-anthropic-media';

/** Tokens the fake counts per PDF page (the high end of the documented 1,500-3,000). */
export const PDF_PAGE_TOKENS = 3000;

/** Cache entries live 5 minutes from their last use (the default `ephemeral` TTL). */
export const CACHE_TTL_MS = 5 * 60 * 1000;
/** The API checks for hits at most 20 block boundaries back from each explicit breakpoint. */
export const CACHE_LOOKBACK_BLOCKS = 20;

/**
 * Minimum cacheable prompt length per model ("Cache limitations" on the prompt caching page): shorter prefixes are
 * processed without caching, and no error is returned. Haiku 4.5 and Opus 4.5/4.6: 4,096; Haiku 3/3.5: 2,048; the
 * other Sonnet and Opus models: 1,024.
 */
export function minimumCacheableTokens(model: string): number {
  if (/haiku-4-5|opus-4-5|opus-4-6/.test(model)) return 4096;
  if (/haiku/.test(model)) return 2048;
  return 1024;
}

/** One unit of the prompt in cache order (tools, then system, then messages) and whether it carries a breakpoint. */
export interface PromptBlock {
  /** Canonical JSON of the block without its cache_control (plus the role for message blocks). */
  key: string;
  tokens: number;
  isBreakpoint: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** JSON with sorted keys and no cache_control, so equal blocks give equal keys whatever the key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (!isRecord(value)) return JSON.stringify(value) ?? 'null';
  const keys = Object.keys(value)
    .filter((key) => key !== 'cache_control' && value[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
}

/** The fake's deterministic token estimate: 4 characters of a block's canonical JSON make one token. */
export const estimateTokens = (key: string): number => Math.max(1, Math.ceil(key.length / 4));

/**
 * An image costs about width x height / 750 tokens, and the API scales an image down until it fits 1,568 px on its long
 * edge and ~1.15 megapixels, so no image costs more than about 1,600 tokens, whatever the size of its base64 data
 * (https://platform.claude.com/docs/en/build-with-claude/vision, "Calculate image costs"). PNG sizes are read from the
 * IHDR chunk; other formats count as the largest image.
 */
export const MAX_IMAGE_TOKENS = 1600;
export function imageTokens(base64: string): number {
  const head = Buffer.from(base64.slice(0, 32), 'base64');
  const isPng = head.length >= 24 && head.toString('latin1', 1, 4) === 'PNG';
  if (!isPng) return MAX_IMAGE_TOKENS;
  const pixels = head.readUInt32BE(16) * head.readUInt32BE(20);
  return Math.max(1, Math.min(MAX_IMAGE_TOKENS, Math.ceil(pixels / 750)));
}

/** Tokens of a value: its JSON text at 4 characters a token, each base64 image as the image it is. */
function valueTokens(value: unknown): number {
  let images = 0;
  const withoutImages = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(withoutImages);
    if (!isRecord(v)) return v;
    const source = v.source;
    if (v.type === 'image' && isRecord(source) && source.type === 'base64' && typeof source.data === 'string') {
      images += imageTokens(source.data);
      return { ...v, source: { ...source, data: '' } };
    }
    // A PDF costs by its pages ("1,500-3,000 tokens per page", pdf-support "Estimate your costs"), not its base64.
    if (v.type === 'document' && isRecord(source) && source.type === 'base64' && typeof source.data === 'string') {
      images += Math.max(1, fakePdfPages(Buffer.from(source.data, 'base64'))) * PDF_PAGE_TOKENS;
      return { ...v, source: { ...source, data: '' } };
    }
    return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, withoutImages(inner)]));
  };
  const text = canonical(withoutImages(value));
  return estimateTokens(text) + images;
}

function block(value: unknown, role?: string): PromptBlock {
  const whole = role === undefined ? value : { role, block: value };
  const key = canonical(whole);
  return { key, tokens: valueTokens(whole), isBreakpoint: isRecord(value) && value.cache_control != null };
}

/**
 * The prompt as blocks in cache order. Tools sent with `defer_loading: true` are not in the prompt prefix
 * (https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-use-with-prompt-caching).
 */
export function promptBlocks(body: Record<string, unknown>): PromptBlock[] {
  const blocks: PromptBlock[] = [];
  const tools = Array.isArray(body.tools) ? body.tools : [];
  for (const tool of tools) if (!(isRecord(tool) && tool.defer_loading === true)) blocks.push(block(tool));
  if (typeof body.system === 'string' && body.system !== '') blocks.push(block({ type: 'text', text: body.system }));
  if (Array.isArray(body.system)) for (const part of body.system) blocks.push(block(part));
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (const message of messages) {
    if (!isRecord(message)) continue;
    const role = String(message.role);
    if (typeof message.content === 'string') blocks.push(block({ type: 'text', text: message.content }, role));
    else if (Array.isArray(message.content)) for (const part of message.content) blocks.push(block(part, role));
  }
  return blocks;
}

/** Estimated input tokens of a request: the sum of its prompt blocks. */
export const promptTokens = (body: Record<string, unknown>): number =>
  promptBlocks(body).reduce((sum, b) => sum + b.tokens, 0);

export interface CacheUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** The prompt cache of one fake instance: prefix hash → expiry time. */
export class PromptCache {
  private readonly entries = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Reads the longest cached prefix reachable from a breakpoint, writes the prefixes up to each breakpoint. */
  account(model: string, blocks: readonly PromptBlock[]): CacheUsage {
    const now = this.now();
    for (const [hash, expiresAt] of this.entries) if (expiresAt <= now) this.entries.delete(hash);
    // hashes[i] and totals[i] describe the prefix that ends after block i.
    const hashes: string[] = [];
    const totals: number[] = [];
    let hash = createHash('sha256').update(model).digest('hex');
    let total = 0;
    for (const b of blocks) {
      hash = createHash('sha256').update(hash).update(b.key).digest('hex');
      total += b.tokens;
      hashes.push(hash);
      totals.push(total);
    }
    const breakpoints = blocks.flatMap((b, i) => (b.isBreakpoint ? [i] : []));
    let readEnd = -1;
    for (const bp of breakpoints) {
      for (let i = bp; i >= Math.max(0, bp - CACHE_LOOKBACK_BLOCKS + 1); i--) {
        if (this.entries.has(hashes[i]!)) {
          readEnd = Math.max(readEnd, i);
          break;
        }
      }
    }
    const minimum = minimumCacheableTokens(model);
    const read = readEnd >= 0 ? totals[readEnd]! : 0;
    if (readEnd >= 0) this.entries.set(hashes[readEnd]!, now + CACHE_TTL_MS);
    let writeEnd = -1;
    for (const bp of breakpoints) {
      if (totals[bp]! < minimum) continue;
      this.entries.set(hashes[bp]!, now + CACHE_TTL_MS);
      writeEnd = Math.max(writeEnd, bp);
    }
    const written = writeEnd > readEnd ? totals[writeEnd]! - read : 0;
    return {
      input_tokens: total - read - written,
      cache_creation_input_tokens: written,
      cache_read_input_tokens: read,
    };
  }
}
