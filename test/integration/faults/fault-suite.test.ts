// The fault suite is defined by placement: npm run test:faults selects files by folder or name, and every test file
// the fault matrix names must exist and be among them (a moved or renamed test would silently drop out otherwise).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');

/** The vitest filters test:faults passes to each project (vitest keeps a file whose relative path contains one). */
function faultFilters(): Record<string, string[]> {
  const script = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts['test:faults']!;
  const byProject: Record<string, string[]> = {};
  for (const command of script.split('&&')) {
    const words = command.trim().split(/\s+/);
    const project = words[words.indexOf('--project') + 1]!;
    byProject[project] = words.slice(words.indexOf('--project') + 2).filter((word) => !word.startsWith('-'));
  }
  return byProject;
}

/** A test file as the matrix names it, from the repository root (`faults/` and `hostile/` are shorthand, see the matrix). */
function resolveReference(reference: string): string {
  if (reference.startsWith('src/') || reference.startsWith('test/')) return reference;
  if (reference.startsWith('faults/') || reference.startsWith('hostile/'))
    return reference.endsWith('.e2e.test.ts') ? `test/e2e/${reference}` : `test/integration/${reference}`;
  return reference;
}

const matrixReferences = [...read('docs/fault-matrix.md').matchAll(/`([a-z][^`\s]*\.test\.ts)`/g)].map((m) => m[1]!);

describe('the fault suite', () => {
  it('is selected by placement in both projects: faults/ and hostile/ folders and *.fault.test.ts', () => {
    expect(faultFilters()).toEqual({
      unit: ['/faults/', '/hostile/', '.fault.test.ts'],
      e2e: ['/faults/', '/hostile/', '.fault.test.ts'],
    });
  });

  it('includes every test file the fault matrix names, and each of them exists', () => {
    const filters = faultFilters();
    const files = [...new Set(matrixReferences.map(resolveReference))];
    expect(files.length).toBeGreaterThan(10);
    const missing = files.filter((file) => !existsSync(`${ROOT}${file}`));
    const project = (file: string) => (file.endsWith('.e2e.test.ts') ? 'e2e' : 'unit');
    const unselected = files.filter((file) => !filters[project(file)]!.some((filter) => file.includes(filter)));
    expect({ missing, unselected }).toEqual({ missing: [], unselected: [] });
  });
});
