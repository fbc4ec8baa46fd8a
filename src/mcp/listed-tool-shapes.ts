import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { compileOutputSchema, type OutputCheck } from './schema-validation';
import type { ToolCallShape } from './tool-requests';

/** What a connection knows of its listed tools to call them: which must run as tasks, and their output checks. */
export class ListedToolShapes {
  private taskRequired = new Set<string>();
  private outputSchemas = new Map<string, unknown>();
  /** Compiled at a tool's first call, not while thousands of tools are listed. */
  private readonly outputChecks = new Map<string, OutputCheck | undefined>();

  /** Takes in a new tool list (the previous one's shapes are dropped). */
  take(tools: readonly Tool[]): void {
    this.taskRequired = new Set(tools.filter((t) => t.execution?.taskSupport === 'required').map((t) => t.name));
    this.outputSchemas = new Map(tools.flatMap((t) => (t.outputSchema ? [[t.name, t.outputSchema] as const] : [])));
    this.outputChecks.clear();
  }

  /** How the tool is called: as a task or not, and its output schema's check. */
  of(name: string): ToolCallShape {
    const outputCheck = this.outputCheck(name);
    return { isTaskRequired: this.taskRequired.has(name), ...(outputCheck ? { outputCheck } : {}) };
  }

  /** The check of the tool's output schema; undefined when it declares none, or one the app cannot use. */
  private outputCheck(name: string): OutputCheck | undefined {
    const schema = this.outputSchemas.get(name);
    if (schema === undefined) return undefined;
    if (!this.outputChecks.has(name)) this.outputChecks.set(name, compileOutputSchema(schema));
    return this.outputChecks.get(name);
  }
}
