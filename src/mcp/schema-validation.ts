import { Validator, type Schema } from '@cfworker/json-schema';
import type {
  jsonSchemaValidator,
  JsonSchemaType,
  JsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation/types.js';
import { schemaShapeProblem } from './schema-shape';
import { patternsOf, uncheckablePattern, withLinearRegExp } from './linear-regexp';

/** Checks tool arguments against a tool's input schema; never compiles code, so it works under a strict CSP. */
export interface InputCheck {
  check(input: unknown): string | undefined;
  /** Set when the schema could not be compiled and every input is accepted. */
  readonly warning?: string;
}

/**
 * Compiles an input schema; a schema that cannot be compiled (or is not a valid JSON Schema) gives a permissive check
 * with a warning. Patterns
 * run on RE2 (linear time); one that needs backtracking (backreferences, lookaround) cannot be checked safely,
 * so that tool's arguments are sent unchecked (the server checks its own) and its warning says so.
 */
export function compileInputSchema(toolName: string, schema: unknown): InputCheck {
  try {
    // A keyword of the wrong kind ("type": "strng") would fail every input: the tool stays usable, unchecked.
    const shapeProblem = schemaShapeProblem(schema);
    if (shapeProblem !== undefined) throw new Error(shapeProblem);
    const validator = new Validator(schema as Schema, '2020-12', false);
    // cfworker compiles lazily (a bad regex throws on first use): compile what it would, and validate once now.
    for (const pattern of patternsOf(schema)) new RegExp(pattern, 'u');
    const uncheckable = uncheckablePattern(schema);
    if (uncheckable !== undefined)
      return {
        check: () => undefined,
        warning: `The input schema of "${toolName}" uses a pattern that cannot be checked in linear time (backreferences or lookaround: "${uncheckable}"); its arguments are sent unchecked.`,
      };
    withLinearRegExp(() => validator.validate({}));
    return {
      check(input) {
        try {
          const result = withLinearRegExp(() => validator.validate(input));
          return result.valid ? undefined : describeProblems(result.errors);
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

/**
 * The validator's errors as a sentence each, where they are: only the deepest (a parent's "does not match schema"
 * says nothing its child's error does not), e.g. 'a: Instance type "string" is invalid. Expected "number".'
 */
function describeProblems(errors: readonly { readonly instanceLocation: string; readonly error: string }[]): string {
  const deepest = errors.filter(
    (e) => !errors.some((other) => other.instanceLocation.startsWith(`${e.instanceLocation}/`)),
  );
  return deepest
    .map((e) => {
      const where = e.instanceLocation === '#' ? 'arguments' : e.instanceLocation.replace(/^#\//, '');
      return `${where}: ${e.error}${/[.!?]$/.test(e.error) ? '' : '.'}`;
    })
    .join(' ');
}

/**
 * The validator given to the SDK client for output schemas: cfworker (no eval) with RE2 patterns, and a schema
 * that cannot be compiled or checked accepts everything instead of breaking the tool.
 */
export class PermissiveCfWorkerValidator implements jsonSchemaValidator {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let validator: Validator | undefined;
    try {
      validator =
        schemaShapeProblem(schema) === undefined ? new Validator(schema as Schema, '2020-12', true) : undefined;
    } catch {
      validator = undefined;
    }
    return (input) => {
      try {
        const result = validator && withLinearRegExp(() => validator.validate(input));
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
