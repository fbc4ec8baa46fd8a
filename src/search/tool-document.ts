import type { EffectiveTool } from '../domain/tool';
import type { ToolDefinition } from '../domain/tool-catalog';
import { tokenize } from './tokenize';

/** The fields of the app's tool shape that search reads (the description may be an override, and empty). */
export type SearchableTool = Pick<
  EffectiveTool,
  'serverId' | 'toolName' | 'serverName' | 'modelName' | 'description' | 'definition'
>;

/** The fields of a tool that the index scores. */
export const INDEXED_FIELDS = ['name', 'server', 'description', 'params'] as const;

/** The text fields of one tool (for the regex strategy), their terms (for the index) and the tool itself. */
export interface ToolDocument {
  readonly id: number;
  readonly tool: SearchableTool;
  readonly name: string;
  readonly server: string;
  readonly description: string;
  readonly params: string;
  /** Each field's terms in INDEXED_FIELDS order: what the BM25 index holds. */
  readonly fieldTerms: readonly (readonly string[])[];
}

// Bounds on what one tool contributes, so a server with a giant schema cannot slow the index down.
const MAX_DESCRIPTION_CHARS = 4_000;
const MAX_PARAMS_CHARS = 3_000;
const MAX_PROPERTIES = 60;
const MAX_ENUM_VALUES = 20;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Property name, description and enum values of each property, then those of its nested object (one level). */
function describeProperties(schema: unknown, depth: number, out: string[]): void {
  if (!isRecord(schema) || !isRecord(schema.properties)) return;
  for (const [name, property] of Object.entries(schema.properties).slice(0, MAX_PROPERTIES)) {
    out.push(name);
    if (!isRecord(property)) continue;
    if (typeof property.description === 'string') out.push(property.description);
    if (typeof property.title === 'string') out.push(property.title);
    if (Array.isArray(property.enum)) {
      for (const value of property.enum.slice(0, MAX_ENUM_VALUES)) if (typeof value === 'string') out.push(value);
    }
    if (depth > 0) {
      describeProperties(property, depth - 1, out);
      describeProperties(property.items, depth - 1, out);
    }
  }
}

/** The parameter text of a tool: names, descriptions and enum values from its input schema, nested one level. */
export function parameterText(definition: ToolDefinition): string {
  const out: string[] = [];
  describeProperties(definition.inputSchema, 1, out);
  return out.join(' ').slice(0, MAX_PARAMS_CHARS);
}

/** The document the index holds for a tool. */
export function toolDocument(id: number, tool: SearchableTool): ToolDocument {
  const title = typeof tool.definition.title === 'string' ? ` ${tool.definition.title}` : '';
  const text = {
    name: `${tool.toolName}${title}`,
    server: tool.serverName,
    description: tool.description.slice(0, MAX_DESCRIPTION_CHARS),
    params: parameterText(tool.definition),
  };
  return { id, tool, ...text, fieldTerms: INDEXED_FIELDS.map((field) => tokenize(text[field])) };
}

/** The first line or sentence of a description, at most `max` characters: what a result list shows. */
export function oneLine(description: string, max = 160): string {
  const flat = description.replace(/\s+/g, ' ').trim();
  // The first sentence end that is not an abbreviation ("e.g. ", "i.e. ", "etc. ", "vs. ").
  const sentenceEnd = flat.search(/(?<!\b(?:e\.g|i\.e|etc|vs|approx|incl|ca))[.!?](?:\s|$)|[。！？]/iu);
  const first = sentenceEnd > 0 ? flat.slice(0, sentenceEnd + 1) : flat;
  return first.length <= max ? first : `${first.slice(0, max - 1).trimEnd()}…`;
}
