// Reads the tool-retrieval sets of ../shared/data/toolsearch/ (format in its README) into the app's search types.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SearchableTool } from '../../src/search/tool-document';

/** A query of the benchmark: each gold entry lists its acceptable tool ids (`server/name`). */
export interface BenchQuery {
  readonly id: string;
  readonly text: string;
  readonly expectedTools: readonly (readonly string[])[];
}

interface RawTool {
  readonly server: string;
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: Record<string, unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function readJsonArray(file: string): unknown[] {
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(parsed)) throw new Error(`${file}: expected a JSON array`);
  return parsed;
}

function asRawTool(value: unknown, file: string, index: number): RawTool {
  if (!isRecord(value) || typeof value.server !== 'string' || typeof value.name !== 'string') {
    throw new Error(`${file}[${index}]: expected { server, name, description, inputSchema }`);
  }
  return {
    server: value.server,
    name: value.name,
    description: typeof value.description === 'string' ? value.description : '',
    inputSchema: isRecord(value.inputSchema) ? value.inputSchema : {},
  };
}

/** The benchmark id of a tool. */
export const toolId = (tool: { readonly serverName: string; readonly toolName: string }): string =>
  `${tool.serverName}/${tool.toolName}`;

/** A tool of the data set as the app would hold it; `serverSuffix` makes distinct copies for the 10,000-tool run. */
export function toSearchable(raw: RawTool, serverSuffix = ''): SearchableTool {
  const serverName = `${raw.server}${serverSuffix}`;
  return {
    serverId: serverName,
    serverName,
    toolName: raw.name,
    modelName: `${serverName}/${raw.name}`,
    description: raw.description ?? '',
    definition: { name: raw.name, description: raw.description, inputSchema: { ...raw.inputSchema, type: 'object' } },
  };
}

/** The raw tools of a `tools.json`. */
export function readRawTools(file: string): RawTool[] {
  return readJsonArray(file).map((value, index) => asRawTool(value, file, index));
}

/** LiveMCPBench's tools, raw, from ../shared beside the project: where the browser figures' catalogs come from. */
export const readLiveMcpBenchTools = (): RawTool[] =>
  readRawTools(fileURLToPath(new URL('../../../shared/data/toolsearch/livemcpbench/tools.json', import.meta.url)));

/** The tools of a `tools.json`, each its own server's tool. */
export function readTools(file: string): SearchableTool[] {
  return readRawTools(file).map((raw) => toSearchable(raw));
}

/** The tools of a `tools.json` copied with distinct server names until there are at least `count`. */
export function replicateTools(file: string, count: number): SearchableTool[] {
  const raw = readRawTools(file);
  const out: SearchableTool[] = [];
  for (let copy = 0; out.length < count; copy++) {
    for (const tool of raw) {
      if (out.length >= count) break;
      out.push(toSearchable(tool, copy === 0 ? '' : ` #${copy}`));
    }
  }
  return out;
}

/** The queries of a `queries*.json`. */
export function readQueries(file: string): BenchQuery[] {
  return readJsonArray(file).map((value, index) => {
    if (!isRecord(value) || typeof value.text !== 'string' || !Array.isArray(value.expectedTools)) {
      throw new Error(`${file}[${index}]: expected { id, text, expectedTools }`);
    }
    const expectedTools = value.expectedTools.map((entry) =>
      Array.isArray(entry) ? entry.filter((id): id is string => typeof id === 'string') : [],
    );
    return { id: typeof value.id === 'string' ? value.id : String(index), text: value.text, expectedTools };
  });
}

/** A benchmark data set: its tools and its queries. */
export interface BenchSet {
  readonly tools: SearchableTool[];
  readonly queries: BenchQuery[];
}

/**
 * The quality benchmarks' data under `dir`: LiveMCPBench dev, MetaTool, and which MetaTool tools are in its even half
 * (its tools sorted by id, every other one), the split the ranking candidates are checked on.
 */
export function readQualitySets(dir: string): { live: BenchSet; meta: BenchSet; isEven: Map<string, boolean> } {
  const live = {
    tools: readTools(`${dir}/livemcpbench/tools.json`),
    queries: readQueries(`${dir}/livemcpbench/queries.dev.json`),
  };
  const meta = { tools: readTools(`${dir}/metatool/tools.json`), queries: readQueries(`${dir}/metatool/queries.json`) };
  const sortedIds = meta.tools.map(toolId).sort();
  return { live, meta, isEven: new Map(sortedIds.map((id, i) => [id, i % 2 === 0])) };
}
