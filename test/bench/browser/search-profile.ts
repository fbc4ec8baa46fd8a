// A profile after months of use, as trial 12's heavy user had it (400 threads, 5,379 messages, one thread of 600):
// questions, long answers in Markdown (paragraphs, code, tables), a second version of an answer in some threads, and
// a few rare words to search for.
import type { NewMessage } from '../../../src/domain/message';

export interface SearchProfileSpec {
  /** How many threads; the first (the oldest) holds `bigMessages` messages, the others 4 to 20. */
  readonly threads: number;
  readonly bigMessages: number;
}

export interface SearchProfileThread {
  readonly title: string;
  /** The shown branch, first to last. */
  readonly messages: readonly NewMessage[];
  /** A second version of the answer at this index of `messages`, stored but not shown. */
  readonly alternativeAt?: number;
}

/** The big thread's title, and where the rare words stand (the searches of the bench look for them). */
export const BIG_TITLE = 'Big refactoring thread';

const CITIES = ['Oslo', 'Lisbon', 'Cairo', 'Tokyo', 'Lima'];
const KINDS = ['tables', 'code', 'images', 'notes'];

const code = (i: number) =>
  '```typescript\n' +
  Array.from(
    { length: 60 },
    (_, k) => `export function step${i}_${k}(x: number): number { return x * ${k} + ${i}; } // line ${k}`,
  ).join('\n') +
  '\n```';
const table = (i: number) =>
  '| city | temp | rain | wind |\n|---|---|---|---|\n' +
  Array.from({ length: 12 }, (_, k) => `| City${k} | ${k + (i % 7)} | ${k % 3} | ${k * 2} |`).join('\n');
const longText = (i: number) =>
  Array.from(
    { length: 6 },
    (_, k) =>
      `Paragraph ${k} of answer ${i}. ` +
      'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. '.repeat(
        3,
      ),
  ).join('\n\n');

/** The thread that holds the rare word "zanzibarite" (the 250th of 400, or the last of fewer). */
export const rareThreadIndex = (spec: SearchProfileSpec): number => Math.min(250, spec.threads - 1);

export const threadTitle = (t: number): string =>
  t === 0
    ? BIG_TITLE
    : `Thread ${String(t).padStart(3, '0')} about ${CITIES[t % CITIES.length]} ${KINDS[t % KINDS.length]}`;

/** The threads of the profile, oldest first (as trial 12's seed.js made them). */
export function searchProfile(spec: SearchProfileSpec): SearchProfileThread[] {
  const rare = rareThreadIndex(spec);
  return Array.from({ length: spec.threads }, (_, t) => {
    const count = t === 0 ? spec.bigMessages : 4 + (t % 17);
    const messages: NewMessage[] = Array.from({ length: count }, (_, m) => {
      const isUser = m % 2 === 0;
      const text = isUser
        ? `Question ${m} in thread ${t}` +
          (t === 0 && m === 10 ? ' mentioning the rare word quokkafish' : '') +
          (t === rare && m === 2 ? ' about zanzibarite crystals' : '')
        : [longText, code, table][(m >> 1) % 3]!(m) + (t === 0 && m === 11 ? '\n\nAnswer with flamingoberry.' : '');
      return { role: isUser ? 'user' : 'assistant', status: 'complete', blocks: [{ type: 'text', text }] };
    });
    return { title: threadTitle(t), messages, ...(t % 20 === 7 && count > 4 ? { alternativeAt: 3 } : {}) };
  });
}
