import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { ToolDefinition, type ToolCatalog } from '../domain/tool-catalog';
import { logFailure, type Logger } from '../domain/logger';

/** Where catalogs are kept between sessions (the storage layer's tool-catalog repository fits). */
export interface CatalogStore {
  get(profileId: string, serverId: string): Promise<ToolCatalog | undefined>;
  set(catalog: ToolCatalog): Promise<void>;
  delete(profileId: string, serverId: string): Promise<void>;
}

/** A tool's description goes into every model request that carries the tool: longer ones are cut to this. */
export const MAX_DESCRIPTION_CHARS = 4_000;
/** An input schema past this (as JSON) cannot be sent with every request: its tool is left out. */
export const MAX_INPUT_SCHEMA_CHARS = 64_000;
/** Deeper schemas are left out too: rendering, hashing and checking them recurse. */
export const MAX_INPUT_SCHEMA_DEPTH = 64;

const count = (n: number) => n.toLocaleString('en-US');

/** Tools taken in one step (checked, measured, written out, compiled) before `pause` lets the page handle input. */
export const STEP = 64;

/**
 * Calls `step` on `items` STEP at a time, with `pause` (which lets the page handle input) between steps. A step that
 * returns false ends it early; resolves to whether every step ran.
 */
export async function inSteps<T>(
  items: readonly T[],
  pause: (() => Promise<void>) | undefined,
  step: (slice: readonly T[]) => boolean | void,
): Promise<boolean> {
  for (let start = 0; start < items.length; start += STEP) {
    if (start > 0) await pause?.();
    if (step(items.slice(start, start + STEP)) === false) return false;
  }
  return true;
}

/**
 * Builds a catalog from a tools/list answer; definitions that are not valid tools are left out, with a note in `cuts`
 * (as are `rejected`, the notes of those the listing left out). A large answer is taken a step of STEP tools at a
 * time, with `pause` (which lets the page handle input) between steps.
 */
export async function catalogFromTools(
  profileId: string,
  serverId: string,
  tools: readonly Tool[],
  now: number,
  sha256Hex: (text: string) => Promise<string>,
  instructions?: string,
  pause?: () => Promise<void>,
  rejected: readonly string[] = [],
): Promise<ToolCatalog> {
  /** How many definitions each name has (the first is kept), and the notes of those that are not valid tools. */
  const seen = new Map<string, number>();
  const invalid: string[] = [];
  const definitions: ToolDefinition[] = [];
  await inSteps(tools, pause, (slice) => {
    for (const tool of slice) {
      const parsed = ToolDefinition.safeParse(tool);
      if (!parsed.success) {
        invalid.push(invalidNote(tool, parsed.error));
        continue;
      }
      const times = seen.get(parsed.data.name) ?? 0;
      seen.set(parsed.data.name, times + 1);
      if (times === 0) definitions.push(parsed.data);
    }
  });
  const duplicates = [...seen]
    .filter(([, times]) => times > 1)
    .map(
      ([name, times]) =>
        `${name}: ${times - 1} more tool${times > 2 ? 's' : ''} of this name left out (the first listed is kept)`,
    );
  const limited = await limitInSteps(definitions, pause);
  const cuts = [...rejected, ...invalid, ...duplicates, ...limited.cuts];
  const sorted = [...limited.tools].sort((a, b) => a.name.localeCompare(b.name));
  // JSON.stringify of the whole list, written a step at a time.
  const parts: string[] = [];
  await inSteps(sorted, pause, (slice) => void parts.push(...slice.map((tool) => JSON.stringify(tool))));
  const hash = await sha256Hex(`[${parts.join(',')}]`);
  return {
    profileId,
    serverId,
    tools: limited.tools,
    hash,
    fetchedAt: now,
    ...(cuts.length ? { cuts } : {}),
    ...(instructions?.trim() ? { instructions: limitInstructions(instructions.trim()) } : {}),
  };
}

/** Why a definition the SDK took is not a tool of the catalog (the catalog's schema is stricter: a name, for one). */
function invalidNote(tool: Tool, error: z.ZodError): string {
  if (tool.name === '') return '(a tool with an empty name): left out: a tool needs a name to be called';
  const issue = error.issues[0];
  const where = issue?.path.map(String).join('.');
  return `${tool.name}: left out: its definition is not a valid tool (${where ? `${where}: ` : ''}${issue?.message ?? 'invalid'})`;
}

/** A server's instructions go into the system prompt of every request of a thread it is on in: longer ones are cut. */
export const MAX_INSTRUCTIONS_CHARS = 8_000;

function limitInstructions(text: string): string {
  if (text.length <= MAX_INSTRUCTIONS_CHARS) return text;
  return `${text.slice(0, MAX_INSTRUCTIONS_CHARS)}\n[Instructions cut to ${count(MAX_INSTRUCTIONS_CHARS)} characters.]`;
}

/**
 * A catalog within the caps (one stored before they existed may be over them); what is cut is listed in `cuts`.
 * `pause` (letting the page handle input) comes between steps of STEP tools.
 */
export async function limitCatalog(catalog: ToolCatalog, pause?: () => Promise<void>): Promise<ToolCatalog> {
  const { tools, cuts } = await limitInSteps(catalog.tools, pause);
  if (cuts.length === 0) return catalog;
  return { ...catalog, tools, cuts: [...(catalog.cuts ?? []), ...cuts] };
}

/**
 * A server's stored catalog, within the caps, checked a step at a time with `pause` between steps; a failed read is
 * logged and reads as none.
 */
export async function readStoredCatalog(
  catalogs: CatalogStore,
  profileId: string,
  serverId: string,
  logger: Logger,
  pause?: () => Promise<void>,
): Promise<ToolCatalog | undefined> {
  const stored = await catalogs
    .get(profileId, serverId)
    .catch(logFailure(logger, 'Reading a stored tool catalog failed', { serverId }));
  const limited = stored && (await limitCatalog(stored, pause));
  if ((stored?.tools.length ?? 0) > STEP) await pause?.();
  return limited;
}

async function limitInSteps(
  definitions: readonly ToolDefinition[],
  pause?: () => Promise<void>,
): Promise<{ tools: ToolDefinition[]; cuts: string[] }> {
  const tools: ToolDefinition[] = [];
  const cuts: string[] = [];
  await inSteps(definitions, pause, (slice) => {
    const step = limitDefinitions(slice);
    tools.push(...step.tools);
    cuts.push(...step.cuts);
  });
  return { tools, cuts };
}

function limitDefinitions(definitions: readonly ToolDefinition[]): { tools: ToolDefinition[]; cuts: string[] } {
  const tools: ToolDefinition[] = [];
  const cuts: string[] = [];
  for (const definition of definitions) {
    const schemaProblem = inputSchemaProblem(definition.inputSchema);
    if (schemaProblem) {
      cuts.push(`${definition.name}: left out: its input schema ${schemaProblem}`);
      continue;
    }
    const { description } = definition;
    if (description === undefined || description.length <= MAX_DESCRIPTION_CHARS) {
      tools.push(definition);
      continue;
    }
    const note = ` … [Description cut: the server sent ${count(description.length)} characters.]`;
    tools.push({ ...definition, description: description.slice(0, MAX_DESCRIPTION_CHARS - note.length) + note });
    cuts.push(
      `${definition.name}: description cut from ${count(description.length)} to ${count(MAX_DESCRIPTION_CHARS)} characters`,
    );
  }
  return { tools, cuts };
}

/** Why a schema is too large to send, or undefined. Depth is measured first, without recursion. */
function inputSchemaProblem(schema: unknown): string | undefined {
  const depth = depthOf(schema, MAX_INPUT_SCHEMA_DEPTH + 1);
  if (depth > MAX_INPUT_SCHEMA_DEPTH) return `is nested more than ${MAX_INPUT_SCHEMA_DEPTH} levels deep`;
  const size = JSON.stringify(schema).length;
  if (size > MAX_INPUT_SCHEMA_CHARS) return `has ${count(size)} characters (at most ${count(MAX_INPUT_SCHEMA_CHARS)})`;
  return undefined;
}

/** The nesting depth of a JSON value, counted up to `stopAt`. */
function depthOf(value: unknown, stopAt: number): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest >= stopAt) return deepest;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return deepest;
}
