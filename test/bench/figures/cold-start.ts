// Cold start: from navigation to the composer accepting input, the app with 100 threads stored (the last one
// reopened), against an empty React page's first render, alternating, with the HTTP cache off.
import { pageOf } from '../builds';
import { disableCache, seed, timeToComposer, withChromium } from '../chromium';
import { median, type Row } from '../report';

export const THREADS = Array.from({ length: 100 }, (_, i) => ({ title: `Thread ${i + 1}`, messages: 8 }));

/** Median ms to an accepting composer over `runs` first visits each. */
export async function measureColdStart(origin: string, runs = 11): Promise<Row[]> {
  return withChromium(async (context, page) => {
    await seed(page, origin, { apiKey: 'sk-ant-bench-cold-start', threads: THREADS });
    await disableCache(context, page);
    const app: number[] = [];
    const react: number[] = [];
    const bare = `${origin}${pageOf('bare-react').path}`;
    await timeToComposer(page, `${origin}/`); // One unmeasured visit each: Chromium's own first-run work.
    await timeToComposer(page, bare);
    for (let i = 0; i < runs; i++) {
      for (const which of i % 2 === 0 ? ['app', 'react'] : ['react', 'app']) {
        await page.goto('about:blank');
        if (which === 'app') app.push(await timeToComposer(page, `${origin}/`));
        else react.push(await timeToComposer(page, bare));
      }
    }
    return [
      {
        figure: 'Cold start to composer (100 threads)',
        unit: 'ms',
        app: median(app),
        baseline: median(react),
        baselineName: 'empty React page',
        budget: { maxRatio: 1.5 },
        note: `median of ${runs} first visits each, alternating, cache off; app ${Math.min(...app).toFixed(0)}-${Math.max(...app).toFixed(0)} ms, React page ${Math.min(...react).toFixed(0)}-${Math.max(...react).toFixed(0)} ms`,
      },
    ];
  });
}
