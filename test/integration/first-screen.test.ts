// The first screen (src/app/main.tsx and what it imports statically) shows the message box before start-up's own chunk
// arrives; the bundle bench measures its size. This keeps zod out of it: a schema library is start-up's business, and
// a domain module that mixes schemas with constants the UI needs pulled all of zod in (about 28 kB gzip).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** Static value imports and re-exports of a module (not `import type`, not dynamic `import()`). */
function staticImports(source: string): string[] {
  const out: string[] = [];
  for (const match of source.matchAll(/^(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) {
    if (!match[1]) out.push(match[2]!);
  }
  return out;
}

function resolveLocal(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find(
    (path) => existsSync(path) && !path.endsWith('/'),
  );
}

/** Every package the entry reaches through static imports, with the chain of modules that brought it. */
function packagesOf(entry: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Set<string>();
  const visit = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of staticImports(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) {
        const next = resolveLocal(file, specifier);
        if (next && /\.tsx?$/.test(next)) visit(next, [...chain, next.slice(SRC.length + 1)]);
      } else if (!packages.has(specifier)) packages.set(specifier, chain);
    }
  };
  visit(entry, [entry.slice(SRC.length + 1)]);
  return packages;
}

describe('the first screen', () => {
  it('loads no schema library: zod comes with start-up, not before the message box shows', () => {
    const packages = packagesOf(resolve(SRC, 'app/main.tsx'));
    expect(packages.get('react-dom/client')).toBeDefined(); // the walk does reach the first screen's packages
    expect(packages.get('zod'), `zod is imported through ${packages.get('zod')?.join(' → ')}`).toBeUndefined();
  });
});
