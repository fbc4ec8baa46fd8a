// The shape of a JSON Schema's keywords, as the meta-schema has it: a schema the validator would take but that
// means nothing (a type "strng", `required: "a"`) fails every input, so it is found before the validator is built.

const TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);
/** Keywords whose value is a schema. */
const SUBSCHEMA = [
  'additionalProperties',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
] as const;
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;
/** Keywords whose value is a non-empty array of schemas. */
const SCHEMA_LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const COUNTS = [
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minContains',
  'maxContains',
] as const;
const NUMBERS = ['minimum', 'maximum', 'multipleOf'] as const;
/** How many schemas are looked at, at most (the catalog caps a schema's size and depth already). */
const MAX_NODES = 100_000;

type Node = Readonly<Record<string, unknown>>;
const isObject = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isSchema = (value: unknown) => typeof value === 'boolean' || isObject(value);
const isCount = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/**
 * What is wrong with a schema's keywords, where ('properties.message.type: "strng" is not a JSON Schema type'), or
 * undefined when each keyword it knows has a value of the right kind. Unknown keywords are left alone.
 */
export function schemaShapeProblem(schema: unknown): string | undefined {
  const pending: [unknown, string][] = [[schema, '']];
  for (let seen = 0; pending.length > 0 && seen < MAX_NODES; seen++) {
    const [node, path] = pending.pop()!;
    const at = (keyword: string) => (path ? `${path}.${keyword}` : keyword);
    if (!isSchema(node)) return `${path || 'the schema'}: a schema must be an object or a boolean`;
    if (!isObject(node)) continue;
    const problem = keywordProblem(node);
    if (problem) return `${at(problem.keyword)}: ${problem.why}`;
    for (const keyword of SUBSCHEMA) if (keyword in node) pending.push([node[keyword], at(keyword)]);
    if ('items' in node) {
      const items = node.items;
      if (Array.isArray(items)) items.forEach((item, i) => pending.push([item, at(`items.${i}`)]));
      else pending.push([items, at('items')]);
    }
    for (const keyword of SCHEMA_MAP) {
      const value = node[keyword];
      if (isObject(value))
        for (const [name, sub] of Object.entries(value)) pending.push([sub, at(`${keyword}.${name}`)]);
    }
    for (const keyword of SCHEMA_LIST) {
      const value = node[keyword];
      if (Array.isArray(value)) value.forEach((sub, i) => pending.push([sub, at(`${keyword}.${i}`)]));
    }
  }
  return undefined;
}

/** The first keyword of one schema (not its subschemas) whose value is of the wrong kind. */
function keywordProblem(node: Node): { keyword: string; why: string } | undefined {
  if ('type' in node) {
    const types: readonly unknown[] = Array.isArray(node.type) ? node.type : [node.type];
    const wrong = types.find((type) => typeof type !== 'string' || !TYPES.has(type));
    if (wrong !== undefined || types.length === 0)
      return { keyword: 'type', why: `${JSON.stringify(wrong ?? [])} is not a JSON Schema type` };
  }
  if ('required' in node && !(Array.isArray(node.required) && node.required.every((n) => typeof n === 'string')))
    return { keyword: 'required', why: 'must be a list of property names' };
  if ('enum' in node && !Array.isArray(node.enum)) return { keyword: 'enum', why: 'must be a list of values' };
  if ('pattern' in node && typeof node.pattern !== 'string') return { keyword: 'pattern', why: 'must be a string' };
  for (const keyword of SCHEMA_MAP)
    if (keyword in node && !isObject(node[keyword])) return { keyword, why: 'must be an object of schemas' };
  for (const keyword of SCHEMA_LIST) {
    const value = node[keyword];
    if (keyword in node && !(Array.isArray(value) && value.length > 0))
      return { keyword, why: 'must be a non-empty list of schemas' };
  }
  for (const keyword of COUNTS)
    if (keyword in node && !isCount(node[keyword])) return { keyword, why: 'must be a whole number, 0 or more' };
  for (const keyword of NUMBERS)
    if (keyword in node && typeof node[keyword] !== 'number') return { keyword, why: 'must be a number' };
  return undefined;
}
