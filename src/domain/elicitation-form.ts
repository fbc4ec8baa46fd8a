/** One option of a choice field: the value sent, the label shown. */
export interface ChoiceOption {
  readonly value: string;
  readonly label: string;
}

interface FieldBase {
  readonly name: string;
  readonly title: string;
  readonly description?: string;
  readonly isRequired: boolean;
}

/** A field of an elicitation form: the spec's restricted schema (primitive properties only). */
export type FormField =
  | (FieldBase & {
      readonly kind: 'string';
      readonly format?: 'email' | 'uri' | 'date' | 'date-time';
      readonly minLength?: number;
      readonly maxLength?: number;
      readonly default?: string;
    })
  | (FieldBase & {
      readonly kind: 'number';
      readonly isInteger: boolean;
      readonly minimum?: number;
      readonly maximum?: number;
      readonly default?: number;
    })
  | (FieldBase & { readonly kind: 'boolean'; readonly default?: boolean })
  | (FieldBase & { readonly kind: 'choice'; readonly options: readonly ChoiceOption[]; readonly default?: string })
  | (FieldBase & {
      readonly kind: 'multi-choice';
      readonly options: readonly ChoiceOption[];
      readonly minItems?: number;
      readonly maxItems?: number;
      readonly default?: readonly string[];
    });

/** What the person typed or chose, per field: text for text and number inputs, a flag, or the chosen values. */
export type FormValue = string | boolean | readonly string[];

type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/**
 * A requested schema as form fields, or why it is not one this app can show (the spec allows only an object of
 * primitive properties: strings with formats, numbers, booleans, single and multiple choice).
 */
export function parseElicitationSchema(schema: unknown): Parsed<FormField[]> {
  if (!isRecord(schema) || schema.type !== 'object') return fail('the requested schema is not an object schema');
  const properties = schema.properties ?? {};
  if (!isRecord(properties)) return fail('its "properties" is not an object');
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [];
  const fields: FormField[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const field = parseField(name, property, required.includes(name));
    if (!field.ok) return field;
    fields.push(field.value);
  }
  const unknownRequired = required.find((name) => !(name in properties));
  if (unknownRequired) return fail(`it requires "${unknownRequired}", which it does not define`);
  return { ok: true, value: fields };
}

function parseField(name: string, property: unknown, isRequired: boolean): Parsed<FormField> {
  if (!isRecord(property)) return fail(`the field "${name}" is not a schema`);
  const base = {
    name,
    title: str(property.title) ?? name,
    ...(str(property.description) ? { description: str(property.description)! } : {}),
    isRequired,
  };
  const options = choiceOptions(property);
  switch (property.type) {
    case 'string': {
      if (options) {
        const fallback = str(property.default);
        return ok({ ...base, kind: 'choice', options, ...(fallback !== undefined ? { default: fallback } : {}) });
      }
      const format = str(property.format);
      if (format !== undefined && !FORMATS.has(format))
        return fail(`the field "${name}" has the format "${format.slice(0, 40)}", which the spec does not allow`);
      return ok({
        ...base,
        kind: 'string',
        ...(format ? { format: format as 'email' } : {}),
        ...optionalNumber('minLength', property.minLength),
        ...optionalNumber('maxLength', property.maxLength),
        ...(str(property.default) !== undefined ? { default: str(property.default)! } : {}),
      });
    }
    case 'number':
    case 'integer':
      return ok({
        ...base,
        kind: 'number',
        isInteger: property.type === 'integer',
        ...optionalNumber('minimum', property.minimum),
        ...optionalNumber('maximum', property.maximum),
        ...optionalNumber('default', property.default),
      });
    case 'boolean':
      return ok({
        ...base,
        kind: 'boolean',
        ...(typeof property.default === 'boolean' ? { default: property.default } : {}),
      });
    case 'array': {
      const items = isRecord(property.items) ? property.items : undefined;
      const itemOptions = items && choiceOptions({ ...items, type: 'string' });
      if (!itemOptions) return fail(`the field "${name}" is a list of something other than choices`);
      const fallback = Array.isArray(property.default)
        ? property.default.filter((v) => typeof v === 'string')
        : undefined;
      return ok({
        ...base,
        kind: 'multi-choice',
        options: itemOptions,
        ...optionalNumber('minItems', property.minItems),
        ...optionalNumber('maxItems', property.maxItems),
        ...(fallback ? { default: fallback } : {}),
      });
    }
    default:
      return fail(
        `the field "${name}" has the type ${JSON.stringify(property.type ?? null).slice(0, 40)}, which the spec does not allow`,
      );
  }
}

/** Options of `enum` (with legacy `enumNames`), `oneOf` or `anyOf` of `{ const, title }`; undefined when none. */
function choiceOptions(property: Record<string, unknown>): ChoiceOption[] | undefined {
  if (Array.isArray(property.enum)) {
    const names = Array.isArray(property.enumNames) ? property.enumNames : [];
    return property.enum
      .filter((v): v is string => typeof v === 'string')
      .map((value, i) => ({ value, label: str(names[i]) ?? value }));
  }
  const titled = Array.isArray(property.oneOf)
    ? property.oneOf
    : Array.isArray(property.anyOf)
      ? property.anyOf
      : undefined;
  if (!titled) return undefined;
  return titled
    .filter(isRecord)
    .flatMap((o) => (typeof o.const === 'string' ? [{ value: o.const, label: str(o.title) ?? o.const }] : []));
}

const optionalNumber = <K extends string>(key: K, value: unknown): Partial<Record<K, number>> =>
  num(value) === undefined ? {} : ({ [key]: num(value) } as Record<K, number>);
const ok = (value: FormField): Parsed<FormField> => ({ ok: true, value });
const fail = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

/** The values chosen in a multiple-choice field (none for any other value). */
export function chosenOf(value: FormValue | undefined): readonly string[] {
  return typeof value === 'string' || typeof value === 'boolean' || value === undefined ? [] : value;
}

/** The form's starting values: the schema's defaults, else empty. */
export function initialValues(fields: readonly FormField[]): Record<string, FormValue> {
  return Object.fromEntries(
    fields.map((f) => [
      f.name,
      f.kind === 'boolean'
        ? (f.default ?? false)
        : f.kind === 'multi-choice'
          ? (f.default ?? [])
          : f.default === undefined
            ? ''
            : String(f.default),
    ]),
  );
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The answer as the server's schema wants it, or a message per field that is wrong (checked before sending). */
export function checkAnswer(
  fields: readonly FormField[],
  values: Readonly<Record<string, FormValue>>,
):
  | { readonly content: Record<string, string | number | boolean | string[]> }
  | { readonly errors: Record<string, string> } {
  const content: Record<string, string | number | boolean | string[]> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const value = values[field.name];
    const problem = checkField(field, value, (v) => (content[field.name] = v));
    if (problem) errors[field.name] = problem;
  }
  return Object.keys(errors).length > 0 ? { errors } : { content };
}

function checkField(
  field: FormField,
  value: FormValue | undefined,
  keep: (value: string | number | boolean | string[]) => void,
): string | undefined {
  if (field.kind === 'boolean') return void keep(value === true);
  if (field.kind === 'multi-choice') {
    const chosen = [...chosenOf(value)];
    if (field.isRequired && chosen.length === 0) return 'Choose at least one.';
    if (field.minItems !== undefined && chosen.length > 0 && chosen.length < field.minItems)
      return `Choose at least ${field.minItems}.`;
    if (field.maxItems !== undefined && chosen.length > field.maxItems) return `Choose at most ${field.maxItems}.`;
    if (chosen.some((c) => !field.options.some((o) => o.value === c))) return 'Choose from the options shown.';
    if (chosen.length > 0) keep(chosen);
    return undefined;
  }
  const text = typeof value === 'string' ? value.trim() : '';
  if (text === '') return field.isRequired ? 'Required.' : undefined;
  switch (field.kind) {
    case 'choice':
      if (!field.options.some((o) => o.value === text)) return 'Choose one of the options shown.';
      return void keep(text);
    case 'number': {
      const n = Number(text);
      if (!Number.isFinite(n)) return 'Enter a number.';
      if (field.isInteger && !Number.isInteger(n)) return 'Enter a whole number.';
      if (field.minimum !== undefined && n < field.minimum) return `At least ${field.minimum}.`;
      if (field.maximum !== undefined && n > field.maximum) return `At most ${field.maximum}.`;
      return void keep(n);
    }
    case 'string': {
      if (field.minLength !== undefined && text.length < field.minLength)
        return `At least ${field.minLength} characters.`;
      if (field.maxLength !== undefined && text.length > field.maxLength)
        return `At most ${field.maxLength} characters.`;
      if (field.format === 'email' && !EMAIL.test(text)) return 'Enter an email address, like name@example.com.';
      if (field.format === 'uri' && !URL.canParse(text)) return 'Enter a full address, like https://example.com.';
      if (field.format === 'date' && (!DATE.test(text) || Number.isNaN(Date.parse(text))))
        return 'Enter a date as YYYY-MM-DD.';
      if (field.format === 'date-time' && Number.isNaN(Date.parse(text))) return 'Enter a date and time.';
      return void keep(text);
    }
  }
}
