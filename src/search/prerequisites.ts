// Prerequisite tools (issue #23, round 7): a tool that needs inputs rarely works alone. When it ranks at the top, the
// tools of its own server that supply those inputs (geocode an address before a search near coordinates, look up a
// station code before a ticket query, list or search before fetching one item) rise with it, to a share of its
// score. The links are read from the server's own input schemas and texts, so they hold for any catalog; no word list
// is involved. The index lifts nothing when its best match covers under half of the request (a guess, small talk).
import { tokenize } from './tokenize';
import type { ToolDocument } from './tool-document';

/** Characters of a sibling's description read for the words of a parameter name (as proximity reads). */
const DESCRIPTION_CHARS = 1_000;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The names of the parameters a tool's input schema marks required. */
function requiredInputs(doc: ToolDocument): readonly string[] {
  return inputsOf(doc).names;
}

interface Inputs {
  /** Required parameter names. */
  readonly names: readonly string[];
  /** Each one's words, index form. */
  readonly words: readonly (readonly string[])[];
}

/** Per document, its required inputs and the words of its name and description start, taken on first need. */
const inputsCache = new WeakMap<ToolDocument, Inputs>();
const wordsCache = new WeakMap<ToolDocument, ReadonlySet<string>>();

function inputsOf(doc: ToolDocument): Inputs {
  let inputs = inputsCache.get(doc);
  if (!inputs) {
    const schema = doc.tool.definition.inputSchema;
    const names =
      isRecord(schema) && Array.isArray(schema.required)
        ? schema.required.filter((name): name is string => typeof name === 'string')
        : [];
    inputs = { names, words: names.map((name) => tokenize(name)) };
    inputsCache.set(doc, inputs);
  }
  return inputs;
}

function textWords(doc: ToolDocument): ReadonlySet<string> {
  let words = wordsCache.get(doc);
  if (!words) {
    words = new Set([...tokenize(doc.name), ...tokenize(doc.description.slice(0, DESCRIPTION_CHARS))]);
    wordsCache.set(doc, words);
  }
  return words;
}

/**
 * Whether `sibling` (a tool of the same server) supplies an input that `doc` needs: it needs at most one input itself,
 * none of the ones `doc` needs (an entry point: a search, a list, a look-up), or its name or description holds every
 * word of the name of an input `doc` needs and it does not need that input itself ("ticker" → load_all_tickers).
 */
export function isPrerequisite(doc: ToolDocument, sibling: ToolDocument): boolean {
  const needs = inputsOf(doc);
  if (needs.names.length === 0 || sibling === doc) return false;
  const siblingNeeds = inputsOf(sibling).names;
  if (siblingNeeds.length <= 1 && !siblingNeeds.some((name) => needs.names.includes(name))) return true;
  return needs.names.some((name, i) => {
    const words = needs.words[i]!;
    if (words.length === 0 || siblingNeeds.includes(name)) return false;
    const held = textWords(sibling);
    return words.every((word) => held.has(word));
  });
}

/** The knobs: a prerequisite rises to `weight` × the score of the tool that needs it, for the best `from` tools. */
export interface PrerequisiteOptions {
  readonly weight: number;
  readonly from: number;
  /** At most this many prerequisites per tool, the best matches of the request first: a server of many tools that
   * need nothing (lists, settings) must not fill the results. */
  readonly perTool: number;
}

/**
 * The ranking with the prerequisites of its best tools lifted: each rises to `weight` × the best score among the
 * tools it serves, or keeps its own score if that is higher. Only tools of the ranking (the ones the request's words
 * reached) are lifted, and only they move; the rest keep their order.
 */
export function liftPrerequisites<T extends { doc: ToolDocument; score: number }>(
  ranked: readonly T[],
  { weight, from, perTool }: PrerequisiteOptions,
): T[] {
  if (weight <= 0 || perTool <= 0 || ranked.length === 0) return [...ranked];
  const lift = new Map<T, number>();
  for (const top of ranked.slice(0, from)) {
    if (requiredInputs(top.doc).length === 0) continue;
    // The ranking is best first: its first few prerequisites are the best matches of the request among them.
    let taken = 0;
    for (const entry of ranked) {
      if (taken >= perTool) break;
      if (entry.doc.tool.serverId !== top.doc.tool.serverId || !isPrerequisite(top.doc, entry.doc)) continue;
      lift.set(entry, Math.max(lift.get(entry) ?? 0, weight * top.score));
      taken++;
    }
  }
  const lifted = [...lift]
    .filter(([entry, score]) => score > entry.score)
    .sort(([a, x], [b, y]) => y - x || b.score - a.score || a.doc.id - b.doc.id);
  if (lifted.length === 0) return [...ranked];
  // The lifted tools merged into the others' order, each before the first tool it now outscores.
  const moved = new Set(lifted.map(([entry]) => entry));
  const merged: T[] = [];
  let next = 0;
  for (const entry of ranked) {
    if (moved.has(entry)) continue;
    while (next < lifted.length && lifted[next]![1] > entry.score) merged.push(lifted[next++]![0]);
    merged.push(entry);
  }
  for (const [entry] of lifted.slice(next)) merged.push(entry);
  for (const [entry, score] of lifted) entry.score = score;
  return merged;
}
