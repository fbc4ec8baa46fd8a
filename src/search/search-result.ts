import type { ToolRef } from '../domain/tool-catalog';
import { oneLine, type SearchableTool } from './tool-document';

/** One search hit, best first in a result list. */
export interface ToolMatch {
  readonly ref: ToolRef;
  readonly modelName: string;
  readonly serverName: string;
  /** The first line of the tool's description. */
  readonly description: string;
  readonly score: number;
}

/** Why a regex search was refused; `message` is written for the model (or a person) to act on. */
export interface RegexSearchError {
  readonly kind: 'empty-pattern' | 'pattern-too-long' | 'invalid-pattern' | 'unsafe-pattern';
  readonly message: string;
}

/** The answer of a search: matches, or a typed error (only the regex strategy has any) and no matches. */
export type ToolSearchResult =
  | {
      readonly ok: true;
      readonly matches: readonly ToolMatch[];
      /** Set when a regex search stopped early (its scan budget ran out); the matches are the ones found so far. */
      readonly isTruncated?: boolean;
      /** Set when even the best match covers under half of the query's words (BM25 only): a rephrase may do better. */
      readonly weakMatch?: { readonly matchedWords: number; readonly queryWords: number };
    }
  | { readonly ok: false; readonly matches: readonly []; readonly error: RegexSearchError };

/** A match as callers see it. */
export function toMatch(tool: SearchableTool, score: number): ToolMatch {
  return {
    ref: { serverId: tool.serverId, toolName: tool.toolName },
    modelName: tool.modelName,
    serverName: tool.serverName,
    description: oneLine(tool.description),
    score,
  };
}
