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

/** Says what is wrong with a tool's structured content, or undefined when it meets the tool's output schema. */
export type OutputCheck = (structured: unknown) => string | undefined;

/**
 * Compiles an output schema: its check names every problem as an argument error does (at most MAX_PROBLEMS_NAMED).
 * Undefined for a schema the app cannot use (not valid JSON Schema, or not compilable): nothing is checked against
 * it, and nothing is said of a result that lacks structured content either.
 */
export function compileOutputSchema(schema: unknown): OutputCheck | undefined {
  try {
    if (schemaShapeProblem(schema) !== undefined) return undefined;
    const validator = new Validator(schema as Schema, '2020-12', false);
    for (const pattern of patternsOf(schema)) new RegExp(pattern, 'u');
    // cfworker compiles lazily: validating once now finds what it cannot compile (RE2 cannot run every pattern).
    if (uncheckablePattern(schema) === undefined) withLinearRegExp(() => validator.validate({}));
    return (structured) => {
      try {
        const result = withLinearRegExp(() => validator.validate(structured));
        return result.valid ? undefined : describeProblems(result.errors);
      } catch {
        return undefined; // A pattern RE2 cannot run: not checked, as for arguments.
      }
    };
  } catch {
    return undefined;
  }
}

/** How many problems an argument error names; the rest are counted. */
export const MAX_PROBLEMS_NAMED = 8;
/** Keywords whose error only says a subschema failed: the subschema's own errors say why. */
const WRAPPERS = new Set([
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'contains',
  'dependentSchemas',
  'allOf',
  'if',
  'then',
  'else',
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
]);

interface ValidatorError {
  readonly instanceLocation: string;
  readonly keyword: string;
  readonly error: string;
}

/**
 * The validator's errors as sentences a model can act on ('Missing required property "message".', 'Property "text"
 * is not allowed.', 'a: wrong type: expected number, got string.'), each problem once, at most MAX_PROBLEMS_NAMED. An
 * error that only says a subschema failed is left out when the subschema's own error is there.
 */
function describeProblems(errors: readonly ValidatorError[]): string {
  const isWrapper = (e: ValidatorError) => WRAPPERS.has(e.keyword);
  const explained = (e: ValidatorError) =>
    errors.some(
      (other) =>
        !isWrapper(other) &&
        (other.instanceLocation === e.instanceLocation || other.instanceLocation.startsWith(`${e.instanceLocation}/`)),
    );
  const sentences = [...new Set(errors.filter((e) => !(isWrapper(e) && explained(e))).map(problemSentence))];
  const named = sentences.slice(0, MAX_PROBLEMS_NAMED);
  const more = sentences.length - named.length;
  return [...named, ...(more > 0 ? [`(${more} more problem${more > 1 ? 's' : ''} not named.)`] : [])].join(' ');
}

/** One error as a sentence: where (a property path; none for the arguments as a whole) and what is wrong. */
function problemSentence(e: ValidatorError): string {
  const segments = e.instanceLocation.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodePointer);
  let where = segments.join('.');
  let what = e.error.replace(/[.!?]$/, '');
  const required = /^Instance does not have required property "(.*)"$/.exec(what);
  const type = /^Instance type "(.*)" is invalid\. Expected (.*)$/.exec(what);
  if (required) what = `missing required property "${required[1]}"`;
  else if (type) what = `wrong type: expected ${type[2]!.replaceAll('"', '')}, got ${type[1]}`;
  else if (e.keyword === 'false' && segments.length > 0) {
    // The schema of this property is `false` (additionalProperties: false, most often): it may not be there.
    what = `property "${segments.at(-1)}" is not allowed`;
    where = segments.slice(0, -1).join('.');
  }
  const sentence = where ? `${where}: ${what}` : what.charAt(0).toUpperCase() + what.slice(1);
  return `${sentence}.`;
}

const decodePointer = (segment: string) => decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~');

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
