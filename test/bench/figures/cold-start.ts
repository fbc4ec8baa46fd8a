// Cold start: from navigation to the composer accepting input, the app with 100 threads stored (the last one
// reopened), against an empty React page's first render, alternating, with the HTTP cache off.
import { pageOf } from '../builds';
import { disableCache, seed, visit, withChromium, type Visit } from '../chromium';
import { median, type Row } from '../report';

export const THREADS = Array.from({ length: 100 }, (_, i) => ({ title: `Thread ${i + 1}`, messages: 8 }));

/** Median ms to an accepting composer over `runs` first visits each. */
export async function measureColdStart(origin: string, runs = 11): Promise<Row[]> {
  return withChromium(async (context, page) => {
    await seed(page, origin, { apiKey: 'sk-ant-bench-cold-start', threads: THREADS });
    await disableCache(context, page);
    const app: Visit[] = [];
    const react: Visit[] = [];
    const bare = `${origin}${pageOf('bare-react').path}`;
    await visit(page, `${origin}/`); // One unmeasured visit each: Chromium's own first-run work.
    await visit(page, bare);
    for (let i = 0; i < runs; i++) {
      for (const which of i % 2 === 0 ? ['app', 'react'] : ['react', 'app']) {
        await page.goto('about:blank');
        if (which === 'app') app.push(await visit(page, `${origin}/`));
        else react.push(await visit(page, bare));
      }
    }
    const at = (visits: readonly Visit[], key: keyof Visit) => median(visits.map((v) => v[key]));
    return [
      {
        figure: 'Cold start to composer (100 threads)',
        unit: 'ms',
        app: at(app, 'ready'),
        baseline: at(react, 'ready'),
        baselineName: 'empty React page',
        budget: { maxRatio: 1.5 },
        note:
          `median of ${runs} first visits each, alternating, HTTP cache off; scripts had run at ${at(app, 'scriptsRun').toFixed(0)} ms (React page ${at(react, 'scriptsRun').toFixed(0)} ms); ` +
          `${at(app, 'jsKb').toFixed(0)} kB gzip of JS arrived before the composer accepted input (React page ${at(react, 'jsKb').toFixed(0)} kB)`,
      },
    ];
  });
}
