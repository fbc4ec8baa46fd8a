import { ValidationError } from '../domain/errors';
import type { ServerConfig, ToolOverride } from '../domain/server-config';
import { trustOf } from '../domain/server-trust';
import { effectiveTool } from '../domain/tool';
import type { ToolCatalog, ToolRef } from '../domain/tool-catalog';
import { layerToolOverride, ownEntry, sameToolOverrides, type AppServerToolOverrides } from '../domain/tool-overrides';
import { inSteps, STEP } from './catalog';
import { loadedConnectionKit, type ConnectionKit, type LazyConnection } from './lazy-kit';
import type { InputCheck } from './schema-validation';
import { ToolNameMap } from './tool-naming';
import type { EffectiveTool, ServerScope } from './registry-types';

/** One registered server as the registry keeps it. */
export interface Entry {
  config: ServerConfig;
  readonly scope: ServerScope;
  readonly connection: LazyConnection;
  catalog?: ToolCatalog;
  /**
   * Argument checks, compiled once the connection code has loaded: at once for a catalog of up to STEP tools, a
   * step at a time for a larger one (see `compileChecksInSteps`); until then a call compiles its own tool's.
   */
  checks?: Map<string, InputCheck>;
  /** How many tools/list answers were begun to be taken in: one that finishes after a later one began is dropped. */
  intakes?: number;
  /** The re-listing of its tools in flight (one at a time, shared), and when the last one began (now()). */
  relisting?: Promise<void>;
  relistedAt?: number;
}

/** The registered servers by id, their tools' model names, and the person's own overrides of app servers' tools. */
export class RegistryEntries {
  private readonly entries = new Map<string, Entry>();
  /** The tools' model names; undefined once a catalog changed, until next asked (a burst of registrations builds once). */
  private builtNames: ToolNameMap | undefined = new ToolNameMap([]);
  /** The person's own overrides for app servers, kept apart from the deployer's config (which stays as shipped). */
  private appToolOverrides: Readonly<AppServerToolOverrides> = {};

  get(serverId: string): Entry | undefined {
    return this.entries.get(serverId);
  }

  ids(): IterableIterator<string> {
    return this.entries.keys();
  }

  all(): Entry[] {
    return [...this.entries.values()];
  }

  add(entry: Entry): void {
    this.entries.set(entry.config.id, entry);
  }

  /** Forgets a server and its tools' model names. */
  remove(serverId: string): void {
    this.entries.delete(serverId);
    this.rebuildNames();
  }

  clear(): void {
    this.entries.clear();
    this.rebuildNames();
  }

  /** Throws a ValidationError when another server (not `replacing`) has the config's id or name. */
  checkUnique(config: ServerConfig, replacing?: string): void {
    for (const [id, other] of this.entries) {
      if (id === replacing) continue;
      if (id === config.id)
        throw new ValidationError('Server', [
          { path: 'id', message: `A server with id "${config.id}" already exists` },
        ]);
      if (other.config.name.toLowerCase() === config.name.toLowerCase())
        throw new ValidationError('Server', [
          { path: 'name', message: `A server named "${config.name}" already exists` },
        ]);
    }
  }

  /** Sets a server's catalog, its argument checks (when the connection code is loaded) and the model names. */
  setCatalog(entry: Entry, catalog: ToolCatalog | undefined): void {
    const hadTools = (entry.catalog?.tools.length ?? 0) > 0;
    entry.catalog = catalog;
    const kit = loadedConnectionKit();
    entry.checks = kit && (catalog?.tools.length ?? 0) <= STEP ? compileChecks(kit, catalog) : undefined;
    // A server's first tools, when no server after it has tools yet, are named after all the others, as a rebuild
    // in order would: the others need no naming again (servers registered together get their catalogs in turn).
    if (!hadTools && this.builtNames && this.noToolsAfter(entry)) this.builtNames.addAll(toolRefs(entry));
    else this.rebuildNames();
  }

  private noToolsAfter(entry: Entry): boolean {
    let isAfter = false;
    for (const each of this.entries.values()) {
      if (isAfter && (each.catalog?.tools.length ?? 0) > 0) return false;
      if (each === entry) isAfter = true;
    }
    return isAfter; // Not registered (removed meanwhile): a rebuild leaves it out.
  }

  /** A tool's argument check: the server's compiled one, or this tool's alone, compiled now. */
  checkOf(entry: Entry, kit: ConnectionKit, toolName: string): InputCheck | undefined {
    const compiled = entry.checks?.get(toolName);
    if (compiled) return compiled;
    const tool = entry.catalog?.tools.find((t) => t.name === toolName);
    return tool && kit.compileInputSchema(tool.name, tool.inputSchema);
  }

  /**
   * Compiles the argument checks of a large catalog a step of STEP tools at a time, `pause` between steps
   * (about 200-300 ms for 10,000 schemas in one piece); they are kept only if the catalog is still the server's. Resolves to
   * whether they were.
   */
  async compileChecksInSteps(entry: Entry, pause?: () => Promise<void>): Promise<boolean> {
    const kit = loadedConnectionKit();
    const catalog = entry.catalog;
    if (!kit || !catalog || entry.checks) return false;
    const checks = new Map<string, InputCheck>();
    const isCurrent = await inSteps(catalog.tools, pause, (slice) => {
      if (entry.catalog !== catalog) return false;
      for (const tool of slice) checks.set(tool.name, kit.compileInputSchema(tool.name, tool.inputSchema));
    });
    if (!isCurrent || entry.catalog !== catalog || this.entries.get(entry.config.id) !== entry) return false;
    entry.checks = checks;
    return true;
  }

  /** The person's overrides of an app server; a user server's own are its config's. */
  personalOverridesOf(entry: Entry): Readonly<Record<string, ToolOverride>> {
    return entry.scope === 'app' ? (ownEntry(this.appToolOverrides, entry.config.id) ?? {}) : {};
  }

  /** A tool's override in effect: the server config's, with the person's on top for an app server. */
  overrideOf(entry: Entry, toolName: string): ToolOverride | undefined {
    return layerToolOverride(
      ownEntry(entry.config.toolOverrides, toolName),
      ownEntry(this.personalOverridesOf(entry), toolName),
    );
  }

  /** The enabled tools of the given servers (all servers when omitted), with overrides applied. */
  enabledTools(serverIds?: readonly string[]): EffectiveTool[] {
    const ids = serverIds ?? [...this.entries.keys()];
    return ids.flatMap((id) => {
      const entry = this.entries.get(id);
      return entry && entry.config.enabled ? this.effectiveTools(entry) : [];
    });
  }

  /** The server's tools with their overrides and model names applied (disabled ones left out). */
  private effectiveTools(entry: Entry): EffectiveTool[] {
    const { config } = entry;
    const trust = trustOf(config);
    return (entry.catalog?.tools ?? []).flatMap((definition) => {
      const tool = effectiveTool({
        config,
        trust,
        isAppServer: entry.scope === 'app',
        definition,
        override: this.overrideOf(entry, definition.name),
        modelName: this.names.nameOf({ serverId: config.id, toolName: definition.name }),
        warning: entry.checks?.get(definition.name)?.warning,
      });
      return tool ? [tool] : [];
    });
  }

  /** Why some of an enabled server's enabled tools cannot have their arguments checked (as `enabledTools` has them). */
  toolWarnings(serverId: string): string[] {
    const entry = this.entries.get(serverId);
    if (!entry?.config.enabled || !entry.checks) return [];
    const warnings: string[] = [];
    for (const definition of entry.catalog?.tools ?? []) {
      const warning = entry.checks.get(definition.name)?.warning;
      if (
        warning &&
        this.overrideOf(entry, definition.name)?.enabled !== false &&
        this.names.nameOf({ serverId, toolName: definition.name })
      )
        warnings.push(warning);
    }
    return warnings;
  }

  /** Maps a model tool name back to its server and tool. */
  resolveToolName(modelName: string): ToolRef | undefined {
    return this.names.resolve(modelName);
  }

  /** Sets the person's overrides of app servers' tools; returns the app servers whose overrides changed. */
  setAppToolOverrides(overrides: Readonly<AppServerToolOverrides>): string[] {
    const before = this.appToolOverrides;
    this.appToolOverrides = overrides;
    const changed: string[] = [];
    for (const [id, entry] of this.entries) {
      if (entry.scope === 'app' && !sameToolOverrides(ownEntry(before, id), ownEntry(overrides, id))) changed.push(id);
    }
    return changed;
  }

  private rebuildNames(): void {
    this.builtNames = undefined;
  }

  /** Built in the servers' order, as before: the first server keeps the plain name where two would clash. */
  private get names(): ToolNameMap {
    return (this.builtNames ??= new ToolNameMap([...this.entries.values()].flatMap(toolRefs)));
  }
}

const toolRefs = (entry: Entry): ToolRef[] =>
  (entry.catalog?.tools ?? []).map((tool) => ({ serverId: entry.config.id, toolName: tool.name }));

function compileChecks(kit: ConnectionKit, catalog: ToolCatalog | undefined): Map<string, InputCheck> {
  return new Map(
    (catalog?.tools ?? []).map((tool) => [tool.name, kit.compileInputSchema(tool.name, tool.inputSchema)]),
  );
}
