// Bundle: gzip size of the JavaScript the first screen needs (index.html's classic scripts, the entry and its static
// imports, from the build manifest) and of all of it, against a bare build of the parts the app must load
// (test/bench/browser/bare-sdks.tsx).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { OUT_DIR, pageOf } from '../builds';
import type { Row } from '../report';

interface ManifestChunk {
  readonly file: string;
  readonly isEntry?: boolean;
  readonly imports?: readonly string[];
  readonly dynamicImports?: readonly string[];
}
type Manifest = Record<string, ManifestChunk>;

const gzipKb = (dir: string, file: string): number => gzipSync(readFileSync(join(dir, file))).length / 1024;
const readManifest = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(dir, '.vite/manifest.json'), 'utf8')) as Manifest;

/** Classic scripts index.html loads as they are (public/theme-boot.js), which the manifest does not list. */
function classicScripts(dir: string): string[] {
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  return [...html.matchAll(/<script\b([^>]*)>/g)]
    .map((match) => match[1]!)
    .filter((attributes) => !/\btype="module"/.test(attributes))
    .flatMap((attributes) => /\bsrc="\/([^"]+)"/.exec(attributes)?.[1] ?? []);
}

/** The JS files loaded before any dynamic import(): the entry and its static imports, transitively. */
export function firstScreenFiles(dir: string): string[] {
  const manifest = readManifest(dir);
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry && manifest[key]!.file.endsWith('.js'));
  if (!entry) throw new Error(`${dir}: the manifest has no JS entry`);
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) visit(next);
  };
  visit(entry);
  return [...seen].map((key) => manifest[key]!.file);
}

/** gzip kB of the first screen's JS and of all JS in the app build; the same for the bare build. */
export function measureBundle(): Row[] {
  const appFirst = [...classicScripts(OUT_DIR), ...firstScreenFiles(OUT_DIR)];
  const firstKb = appFirst.reduce((sum, file) => sum + gzipKb(OUT_DIR, file), 0);
  const assets = readdirSync(join(OUT_DIR, 'assets'))
    .filter((file) => file.endsWith('.js'))
    .map((file) => `assets/${file}`);
  const allFiles = [...classicScripts(OUT_DIR), ...assets];
  const allKb = allFiles.reduce((sum, file) => sum + gzipKb(OUT_DIR, file), 0);
  const bare = pageOf('bare-sdks').dir;
  const bareFirst = firstScreenFiles(bare);
  const bareKb = bareFirst.reduce((sum, file) => sum + gzipKb(bare, file), 0);
  const baselineName = 'bare React + MCP Client + Anthropic SDK';
  return [
    {
      figure: 'Bundle: first screen JS (gzip)',
      unit: 'kB',
      app: firstKb,
      baseline: bareKb,
      baselineName,
      budget: { maxRatio: 1.25 },
      note: `${appFirst.length} file(s) before any lazy chunk; the baseline is a bare build with the same vite.config.ts`,
    },
    {
      figure: 'Bundle: all JS (gzip)',
      unit: 'kB',
      app: allKb,
      baseline: bareKb,
      baselineName,
      note: `${allFiles.length} files: the first screen plus ${allFiles.length - appFirst.length} lazy chunk(s)`,
    },
  ];
}
