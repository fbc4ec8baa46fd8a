// The first screen (src/app/main.tsx and what it imports statically) shows the message box before start-up's own chunk
// arrives; the bundle bench measures its size. This keeps zod out of it: a schema library is start-up's business, and
// a domain module that mixes schemas with constants the UI needs pulled all of zod in (about 28 kB gzip). Nor does it
// hold the open thread's messages and cards (the virtual list, tool cards, apps): they show only once start-up has
// opened the thread, from a chunk of their own fetched beside it (about 28 kB gzip too).
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

/** Every package and module the entry reaches through static imports, with the chain of modules that brought it. */
function reachOf(entry: string): { packages: Map<string, string[]>; modules: Map<string, string[]> } {
  const packages = new Map<string, string[]>();
  const modules = new Map<string, string[]>();
  const seen = new Set<string>();
  const visit = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    modules.set(file.slice(SRC.length + 1), chain);
    for (const specifier of staticImports(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) {
        const next = resolveLocal(file, specifier);
        if (next && /\.tsx?$/.test(next)) visit(next, [...chain, next.slice(SRC.length + 1)]);
      } else if (!packages.has(specifier)) packages.set(specifier, chain);
    }
  };
  visit(entry, [entry.slice(SRC.length + 1)]);
  return { packages, modules };
}

describe('the first screen', () => {
  it('loads no schema library: zod comes with start-up, not before the message box shows', () => {
    const { packages } = reachOf(resolve(SRC, 'app/main.tsx'));
    expect(packages.get('react-dom/client')).toBeDefined(); // the walk does reach the first screen's packages
    expect(packages.get('zod'), `zod is imported through ${packages.get('zod')?.join(' → ')}`).toBeUndefined();
  });

  it("holds the message box but not the thread's messages and cards, which come in their own chunk", () => {
    const { packages, modules } = reachOf(resolve(SRC, 'app/main.tsx'));
    expect(modules.get('ui/features/chat/composer.tsx')).toBeDefined();
    expect(modules.get('ui/features/chat/lazy-thread-pane.tsx')).toBeDefined();
    for (const module of ['thread-pane', 'message-list', 'tool-card', 'chat-header', 'elicitation-card']) {
      const chain = modules.get(`ui/features/chat/${module}.tsx`);
      expect(chain, `${module}.tsx is imported through ${chain?.join(' → ')}`).toBeUndefined();
    }
    const list = packages.get('@tanstack/react-virtual');
    expect(list, `the virtual list is imported through ${list?.join(' → ')}`).toBeUndefined();
  });
});
