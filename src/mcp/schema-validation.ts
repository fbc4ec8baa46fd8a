import { Validator, type Schema } from '@cfworker/json-schema';
import type {
  jsonSchemaValidator,
  JsonSchemaType,
  JsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation/types.js';

/** Checks tool arguments against a tool's input schema; never compiles code, so it works under a strict CSP. */
export interface InputCheck {
  check(input: unknown): string | undefined;
  /** Set when the schema could not be compiled and every input is accepted. */
  readonly warning?: string;
}

/** Compiles an input schema; a schema that cannot be compiled gives a permissive check with a warning. */
export function compileInputSchema(toolName: string, schema: unknown): InputCheck {
  try {
    const validator = new Validator(schema as Schema, '2020-12', false);
    // cfworker compiles lazily (a bad regex throws on first use): compile what it would, and validate once now.
    checkPatterns(schema);
    validator.validate({});
    return {
      check(input) {
        try {
          const result = validator.validate(input);
          return result.valid
            ? undefined
            : result.errors
                .map(
                  (e) =>
                    `${e.instanceLocation === '#' ? 'arguments' : e.instanceLocation.replace(/^#\//, '')}: ${e.error}`,
                )
                .join('; ');
        } catch {
          return undefined;
        }
      },
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      check: () => undefined,
      warning: `The input schema of "${toolName}" cannot be compiled (${reason}); its arguments are sent unchecked.`,
    };
  }
}

/** Throws if any `pattern` or `patternProperties` key in the schema is not a valid regular expression. */
function checkPatterns(node: unknown, depth = 0): void {
  if (depth > 64 || typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) return node.forEach((child) => checkPatterns(child, depth + 1));
  const record = node as Record<string, unknown>;
  if (typeof record.pattern === 'string') new RegExp(record.pattern, 'u');
  if (typeof record.patternProperties === 'object' && record.patternProperties !== null) {
    for (const key of Object.keys(record.patternProperties)) new RegExp(key, 'u');
  }
  for (const value of Object.values(record)) checkPatterns(value, depth + 1);
}

/**
 * The validator given to the SDK client for output schemas: cfworker (no eval), and a schema that cannot
 * be compiled accepts everything instead of breaking the tool.
 */
export class PermissiveCfWorkerValidator implements jsonSchemaValidator {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let validator: Validator | undefined;
    try {
      validator = new Validator(schema as Schema, '2020-12', true);
    } catch {
      validator = undefined;
    }
    return (input) => {
      try {
        const result = validator?.validate(input);
        if (!result || result.valid) return { valid: true, data: input as T, errorMessage: undefined };
        return {
          valid: false,
          data: undefined,
          errorMessage: result.errors.map((e) => `${e.instanceLocation}: ${e.error}`).join('; '),
        };
      } catch {
        return { valid: true, data: input as T, errorMessage: undefined };
      }
    };
  }
}
