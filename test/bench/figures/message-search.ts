// Searching messages from the sidebar's "Search threads" box in a heavy user's profile (trial 12: 400 threads, 5,379
// messages, one thread of 600, long answers with code and tables), against the same searches in a profile of about
// 50 messages, the two pages side by side and the searches interleaved. Each search is typed in one input event (as
// the DevTools protocol inserts text) into the box emptied first; timed in the page from that event to the frame
// after the list shows exactly the threads it should (checked against the same search done here in Node on the same
// messages), with the longest task meanwhile. Also the page's JS heap before the first search and after the last.
import type { CDPSession, Page } from 'playwright-core';
import { latestMatch } from '../../../src/domain/message-text';
import { previewOf } from '../../../src/stores/thread-lifecycle';
import type { Message } from '../../../src/domain/message';
import { BIG_TITLE, rareThreadIndex, searchProfile, type SearchProfileSpec } from '../browser/search-profile';
import { pageOf } from '../builds';
import { heapUsedMb, timeToComposer, withChromium } from '../chromium';
import { median, type Row } from '../report';

const HEAVY: SearchProfileSpec = { threads: 400, bigMessages: 600 };
const LIGHT: SearchProfileSpec = { threads: 7, bigMessages: 12 };

/** A rare word in an old message of the big thread, one in one thread, one in its latest answer, a question, a code line in most threads, and nothing. */
const queries = (spec: SearchProfileSpec) => [
  'quokkafish',
  'zanzibarite',
  'flamingoberry',
  `Question 3 in thread ${rareThreadIndex(spec)}`,
  'step3_59',
  'nothingmatcheszz',
];

/** What the list should show for `query`: how many threads, and how many of them by a line of a message. */
interface Expected {
  readonly rows: number;
  readonly found: number;
}

/** The app's search, done here on the same messages: the title or preview line, else a message of the shown branch. */
function expected(spec: SearchProfileSpec, query: string): Expected {
  const needle = query.trim().toLowerCase();
  let rows = 0;
  let found = 0;
  for (const thread of searchProfile(spec)) {
    const preview = previewOf(thread.messages as unknown as Message[]) ?? '';
    const withIds = thread.messages.map((m, i) => ({ ...m, id: String(i) }));
    if (thread.title.toLowerCase().includes(needle) || preview.toLowerCase().includes(needle)) rows++;
    else if (latestMatch(withIds, needle)) {
      rows++;
      found++;
    }
  }
  return { rows, found };
}

declare global {
  interface Window {
    benchInputAt?: number;
    benchTasks?: { readonly start: number; readonly duration: number }[];
  }
}

/** Before any page script: when the search box last changed, and every long task. */
const SEARCH_PROBE = `(() => {
  window.benchTasks = [];
  document.addEventListener('input', (event) => {
    if (event.target?.getAttribute?.('aria-label') === 'Search threads') window.benchInputAt = event.timeStamp;
  }, true);
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.benchTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
})();`;

/** Resolves, in the page, at the frame after the list shows `want`: ms from the input event, and the longest task since. */
function listShows(page: Page, want: Expected): Promise<{ ms: number; longest: number }> {
  return page.evaluate(
    ({ rows, found }) =>
      new Promise<{ ms: number; longest: number }>((resolve, reject) => {
        const nav = document.querySelector('nav[aria-label="Threads"]');
        const giveUp = performance.now() + 30_000;
        const check = () => {
          const shown = nav?.querySelectorAll('button.thread-link').length ?? -1;
          const lines = nav?.querySelectorAll('.thread-found mark').length ?? -1;
          const status = nav?.querySelector('[role="status"]')?.textContent ?? '';
          const isDone =
            window.benchInputAt !== undefined &&
            shown === rows &&
            lines === found &&
            (rows > 0 || status === 'No thread matches.');
          if (performance.now() > giveUp)
            return reject(
              new Error(`the list showed ${shown} threads, ${lines} by a message; wanted ${rows}, ${found}`),
            );
          if (!isDone) return void requestAnimationFrame(check);
          requestAnimationFrame(() => {
            const start = window.benchInputAt!;
            const end = performance.now();
            // Long tasks are reported after they end: one more task lets the last one in.
            setTimeout(() => {
              const tasks = (window.benchTasks ?? []).filter((t) => t.start + t.duration >= start && t.start <= end);
              resolve({ ms: end - start, longest: Math.max(0, ...tasks.map((t) => t.duration)) });
            }, 0);
          });
        };
        requestAnimationFrame(check);
      }),
    want,
  );
}

interface ProfilePage {
  readonly spec: SearchProfileSpec;
  readonly page: Page;
  readonly cdp: CDPSession;
  readonly heap: () => Promise<number>;
  /** Loads the app again (a fresh page: nothing read ahead for the search). */
  readonly reload: () => Promise<void>;
  readonly messages: number;
}

/**
 * Empties the box, waits for every thread to be listed again, then types `query` at once; the search's times. The
 * first search of a page focuses the box just before (as a click would), so the search meets the page as it is.
 */
async function searchOnce(profile: ProfilePage, query: string, want: Expected) {
  const { page, cdp, spec } = profile;
  const box = page.getByRole('searchbox', { name: 'Search threads' });
  await box.focus();
  await box.fill('');
  await page.waitForFunction(
    (count) => document.querySelectorAll('nav[aria-label="Threads"] button.thread-link').length === count,
    spec.threads,
  );
  await page.evaluate(() => {
    window.benchInputAt = undefined;
  });
  const shown = listShows(page, want);
  await cdp.send('Input.insertText', { text: query });
  return shown;
}

/** Opens the app on a fresh profile seeded with `spec`, and runs `work` with it. */
function withProfile<T>(origin: string, spec: SearchProfileSpec, work: (profile: ProfilePage) => Promise<T>) {
  return withChromium(async (context, page) => {
    await context.addInitScript(SEARCH_PROBE);
    await page.goto(`${origin}${pageOf('harness').path}`);
    await page.waitForFunction(() => window.benchHarness !== undefined);
    await page.evaluate(() => window.benchHarness!.seed({ apiKey: 'sk-ant-bench-search', threads: [] }));
    const messages = await page.evaluate((s) => window.benchHarness!.seedSearchProfile(s), spec);
    const reload = async () => {
      await page.goto('about:blank');
      await timeToComposer(page, `${origin}/`);
      await page
        .locator('nav[aria-label="Threads"] button.thread-link', { hasText: BIG_TITLE })
        .first()
        .waitFor({ timeout: 30_000 });
    };
    await reload();
    const cdp = await context.newCDPSession(page);
    return work({ spec, page, cdp, messages, reload, heap: () => heapUsedMb(context, page) });
  });
}

/**
 * Times every query `rounds` times in both profiles, interleaved, after the first search of `firstRuns` fresh pages
 * of each.
 */
export async function measureMessageSearch(origin: string, rounds = 4, firstRuns = 3): Promise<Row[]> {
  return withProfile(origin, HEAVY, (heavy) =>
    withProfile(origin, LIGHT, async (light) => {
      const heapBefore = await heavy.heap();
      // Typed as soon as the box has focus: what the first search of a page waits for.
      const first = { heavy: [] as number[], light: [] as number[] };
      const firstLongest = { heavy: [] as number[], light: [] as number[] };
      for (let run = 0; run < firstRuns; run++) {
        if (run > 0) await Promise.all([heavy.reload(), light.reload()]);
        const a = await searchOnce(heavy, queries(HEAVY)[0]!, expected(HEAVY, queries(HEAVY)[0]!));
        const b = await searchOnce(light, queries(LIGHT)[0]!, expected(LIGHT, queries(LIGHT)[0]!));
        first.heavy.push(a.ms);
        first.light.push(b.ms);
        firstLongest.heavy.push(a.longest);
        firstLongest.light.push(b.longest);
      }
      const times = { heavy: [] as number[], light: [] as number[] };
      const longest = { heavy: [] as number[], light: [] as number[] };
      for (let round = 0; round < rounds; round++) {
        for (const [i, query] of queries(HEAVY).entries()) {
          const a = await searchOnce(heavy, query, expected(HEAVY, query));
          const b = await searchOnce(light, queries(LIGHT)[i]!, expected(LIGHT, queries(LIGHT)[i]!));
          if (process.env.BENCH_DEBUG)
            console.error(
              query,
              'ms/longest',
              a.ms.toFixed(0),
              a.longest.toFixed(0),
              '|',
              b.ms.toFixed(0),
              b.longest.toFixed(0),
            );
          times.heavy.push(a.ms);
          times.light.push(b.ms);
          longest.heavy.push(a.longest);
          longest.light.push(b.longest);
        }
      }
      const heapAfter = await heavy.heap();
      const spread = (values: number[]) => `${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)} ms`;
      const searches = `${rounds} rounds of ${queries(HEAVY).length} searches, interleaved`;
      return [
        {
          figure: `Message search: keystroke to results (${heavy.messages} messages, ${HEAVY.threads} threads)`,
          unit: 'ms',
          app: median(times.heavy),
          baseline: median(times.light),
          baselineName: `${light.messages}-message profile`,
          note: `${searches}; range ${spread(times.heavy)} vs ${spread(times.light)}; includes the list's 150 ms pause after typing`,
        },
        {
          figure: 'Message search: first search of the page',
          unit: 'ms',
          app: median(first.heavy),
          baseline: median(first.light),
          baselineName: `${light.messages}-message profile`,
          note: `"${queries(HEAVY)[0]}" typed as soon as the box has focus, median of ${firstRuns} pages; ${first.heavy.map((ms) => ms.toFixed(0)).join(', ')} ms; longest task at most ${Math.max(...firstLongest.heavy).toFixed(0)} vs ${Math.max(...firstLongest.light).toFixed(0)} ms`,
        },
        {
          figure: 'Message search: longest task per search',
          unit: 'ms',
          app: median(longest.heavy),
          baseline: median(longest.light),
          baselineName: `${light.messages}-message profile`,
          note: `median of each search's longest task (0: none over 50 ms); longest of all ${Math.max(...longest.heavy).toFixed(0)} ms vs ${Math.max(...longest.light).toFixed(0)} ms`,
        },
        {
          figure: `Message search: JS heap after searching (${heavy.messages} messages)`,
          unit: 'MB',
          app: heapAfter,
          baseline: heapBefore,
          baselineName: 'the same page before its first search',
          note: `used heap after a full GC, before the box had focus and after the last search; ${(heapAfter - heapBefore).toFixed(1)} MB more`,
        },
      ];
    }),
  );
}
