import { MAX_DESCRIPTION_CHARS, type SearchableTool } from './tool-document';

/** Most tools one index holds; more are refused (50,000 index in about a second and a few tens of MB). */
export const MAX_INDEXED_TOOLS = 100_000;

/** A tool the index did not take, and why (written for a person reading the server's status). */
export interface RefusedTool {
  readonly toolName: string;
  readonly reason: string;
}

/** What indexing a server's tools did: how many went in, which were refused, and what was cut or is unsearchable. */
export interface IndexReport {
  readonly indexed: number;
  readonly refused: readonly RefusedTool[];
  /** One line per tool indexed with a caveat ("…: only the first 4,000 characters of its description are searched"). */
  readonly notes: readonly string[];
}

const count = (n: number): string => n.toLocaleString('en-US');

/** Why a tool cannot go into the index (undefined when it can). */
export function refusalOf(
  tool: SearchableTool,
  serverId: string,
  namesOnServer: ReadonlySet<string>,
  indexed: number,
  maxTools = MAX_INDEXED_TOOLS,
): string | undefined {
  if (tool.serverId !== serverId) return `it belongs to server "${tool.serverId}", not "${serverId}"`;
  if (namesOnServer.has(tool.toolName))
    return `the server lists a second tool named "${tool.toolName}"; the first one is kept`;
  if (indexed >= maxTools) return `the tool index is full (${count(maxTools)} tools)`;
  return undefined;
}

/** Collects an IndexReport while tools are indexed. */
export class ReportBuilder {
  private indexed = 0;
  private readonly refused: RefusedTool[] = [];
  private readonly notes: string[] = [];

  refuse(tool: SearchableTool, reason: string): void {
    this.refused.push({ toolName: tool.toolName, reason });
  }

  /** Counts an indexed tool, noting a cut description or a tool no word of a query can reach. */
  noteIndexed(tool: SearchableTool, fieldTerms: readonly (readonly string[])[]): void {
    this.indexed++;
    if (tool.description.length > MAX_DESCRIPTION_CHARS) {
      this.notes.push(
        `${tool.toolName}: only the first ${count(MAX_DESCRIPTION_CHARS)} of its ${count(tool.description.length)} description characters are searched`,
      );
    }
    const [name = [], , description = []] = fieldTerms; // INDEXED_FIELDS: name, server, description, params
    if (name.length === 0 && description.length === 0) {
      this.notes.push(
        `${tool.toolName}: its name and description hold no searchable word; only a regex search finds it`,
      );
    }
  }

  build(): IndexReport {
    return { indexed: this.indexed, refused: this.refused, notes: this.notes };
  }
}
