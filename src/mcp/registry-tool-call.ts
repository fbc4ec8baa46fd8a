import { failedResult, type ToolCallResult } from '../domain/tool-result';
import { unavailableResult, withKit } from './lazy-kit';
import type { RegistryEntries } from './registry-entries';
import type { CallOptions } from './server-connection-deps';

/** Calls a registered server's tool after checking it is known, enabled and given valid arguments. Never throws. */
export async function callRegisteredTool(
  entries: RegistryEntries,
  serverId: string,
  toolName: string,
  args: unknown,
  options: CallOptions,
): Promise<ToolCallResult> {
  const entry = entries.get(serverId);
  if (!entry || !entry.config.enabled)
    return failedResult({ kind: 'server-unavailable', message: `The server "${serverId}" is not available.` }, 0);
  if (entries.overrideOf(entry, toolName)?.enabled === false)
    return failedResult({ kind: 'tool-disabled', message: `The tool "${toolName}" is disabled.` }, 0);
  if (entry.catalog && !entry.catalog.tools.some((t) => t.name === toolName)) {
    return failedResult(
      { kind: 'unknown-tool', message: `The server "${entry.config.name}" has no tool "${toolName}".` },
      0,
    );
  }
  const argumentsObject = args === undefined ? {} : args;
  if (typeof argumentsObject !== 'object' || argumentsObject === null || Array.isArray(argumentsObject)) {
    return failedResult({ kind: 'invalid-arguments', message: 'Tool arguments must be a JSON object.' }, 0);
  }
  return withKit(async (kit) => {
    const problem = entries.checkOf(entry, kit, toolName)?.check(argumentsObject);
    if (problem) return failedResult({ kind: 'invalid-arguments', message: invalidArguments(toolName, problem) }, 0);
    return entry.connection.callTool(toolName, argumentsObject as Record<string, unknown>, options);
  }, unavailableResult);
}

const invalidArguments = (toolName: string, problem: string) => `Invalid arguments for "${toolName}": ${problem}`;

/** Why the tool's input schema refuses these arguments, or undefined (also when it cannot be checked now). */
export async function argumentsProblem(
  entries: RegistryEntries,
  serverId: string,
  toolName: string,
  args: Record<string, unknown>,
): Promise<string | undefined> {
  const entry = entries.get(serverId);
  if (!entry) return undefined;
  return withKit(
    (kit) => {
      const problem = entries.checkOf(entry, kit, toolName)?.check(args);
      return problem ? invalidArguments(toolName, problem) : undefined;
    },
    () => undefined,
  );
}
