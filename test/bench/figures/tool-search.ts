// Tool search at 10,000 tools: runs the tool-search benchmark (search-bench.ts, the app's src/search index) on
// LiveMCPBench copied up to 10,000 tools, and reads its summary; the baseline is minisearch with its defaults.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../builds';
import type { Row } from '../report';

const DATA = join(ROOT, '../shared/data/toolsearch/livemcpbench');

interface Timing {
  readonly indexBuildMs: number;
  readonly queryP50Ms: number;
  readonly queryP95Ms: number;
}
interface Replicated extends Timing {
  readonly tools: number;
  readonly baselineMinisearchDefaults: Timing;
  readonly chunkedBuild: { readonly chunkSize: number; readonly longestChunkMs: number };
}

function runSearchBench(): Promise<Replicated> {
  const args = [
    '--import',
    'tsx',
    join(ROOT, 'test/bench/search-bench.ts'),
    '--tools',
    join(DATA, 'tools.json'),
    '--queries',
    join(DATA, 'queries.dev.json'),
    '--replicate',
    '10000',
    '--runs',
    '3',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`search-bench exited with ${code}: ${stderr.slice(-2000)}`));
      try {
        const summary = JSON.parse(stderr.slice(stderr.indexOf('{'))) as { replicated?: Replicated };
        if (!summary.replicated) throw new Error('no replicated run in the summary');
        resolve(summary.replicated);
      } catch (error) {
        reject(new Error(`search-bench printed no summary (${String(error)}): ${stderr.slice(-2000)}`));
      }
    });
  });
}

/** Index build and query p50/p95 at 10,000 tools, and the longest stretch of the page's chunked build. */
export async function measureToolSearch(): Promise<Row[]> {
  const run = await runSearchBench();
  const base = run.baselineMinisearchDefaults;
  const baselineName = 'minisearch defaults';
  const note = `${run.tools} tools (LiveMCPBench copied), median of 3 builds; queries: the ${'LiveMCPBench'} dev set`;
  return [
    {
      figure: 'Tool search 10k: index build',
      unit: 'ms',
      app: run.indexBuildMs,
      baseline: base.indexBuildMs,
      baselineName,
      note,
    },
    {
      figure: 'Tool search 10k: query p50',
      unit: 'ms',
      app: run.queryP50Ms,
      baseline: base.queryP50Ms,
      baselineName,
      budget: { max: 16 },
    },
    {
      figure: 'Tool search 10k: query p95',
      unit: 'ms',
      app: run.queryP95Ms,
      baseline: base.queryP95Ms,
      baselineName,
      budget: { max: 16 },
    },
    {
      figure: 'Tool search 10k: longest build chunk',
      unit: 'ms',
      app: run.chunkedBuild.longestChunkMs,
      baselineName: '(none)',
      note: `buildIndexInChunks, ${run.chunkedBuild.chunkSize} tools or 12 ms at a time, yielding between; over 50 ms would be a long task a person can feel (in Node, so a GC pause can land in one; the page itself indexes in slices of at most 4 ms, timed by the typing figure)`,
    },
  ];
}
