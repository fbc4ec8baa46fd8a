import { describe, expect, it } from 'vitest';
import { checkAnswer, initialValues, parseElicitationSchema, type FormField } from './elicitation-form';

const fieldsOf = (schema: unknown): FormField[] => {
  const parsed = parseElicitationSchema(schema);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.value;
};

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2 },
    email: { type: 'string', format: 'email' },
    age: { type: 'integer', minimum: 1, maximum: 120, default: 30 },
    agree: { type: 'boolean', default: true },
    hero: {
      type: 'string',
      oneOf: [
        { const: 'h1', title: 'Superman' },
        { const: 'h2', title: 'Wonder Woman' },
      ],
    },
    pet: { type: 'string', enum: ['p1', 'p2'], enumNames: ['Cats', 'Dogs'], default: 'p2' },
    fish: {
      type: 'array',
      minItems: 1,
      maxItems: 2,
      items: {
        anyOf: [
          { const: 'f1', title: 'Tuna' },
          { const: 'f2', title: 'Trout' },
          { const: 'f3', title: 'Eel' },
        ],
      },
    },
  },
  required: ['name', 'email'],
};

describe('an elicitation form', () => {
  it('reads the spec subset: formats, numbers, booleans, titled and legacy enums, multiple choice, defaults', () => {
    const fields = fieldsOf(SCHEMA);
    expect(fields.map((f) => [f.name, f.kind, f.isRequired])).toEqual([
      ['name', 'string', true],
      ['email', 'string', true],
      ['age', 'number', false],
      ['agree', 'boolean', false],
      ['hero', 'choice', false],
      ['pet', 'choice', false],
      ['fish', 'multi-choice', false],
    ]);
    expect(fields[5]).toMatchObject({
      options: [
        { value: 'p1', label: 'Cats' },
        { value: 'p2', label: 'Dogs' },
      ],
    });
    expect(initialValues(fields)).toEqual({
      name: '',
      email: '',
      age: '30',
      agree: true,
      hero: '',
      pet: 'p2',
      fish: [],
    });
  });

  it('names what is wrong before anything is sent', () => {
    const fields = fieldsOf(SCHEMA);
    const answer = checkAnswer(fields, {
      ...initialValues(fields),
      name: 'A',
      email: 'not-an-email',
      age: '200',
      fish: ['f1', 'f2', 'f3'],
    });
    expect(answer).toEqual({
      errors: {
        name: 'At least 2 characters.',
        email: 'Enter an email address, like name@example.com.',
        age: 'At most 120.',
        fish: 'Choose at most 2.',
      },
    });
    expect(checkAnswer(fields, { ...initialValues(fields), email: 'a@b.co' })).toEqual({
      errors: { name: 'Required.' },
    });
  });

  it('sends typed values: numbers as numbers, choices as their values, empty optional fields left out', () => {
    const fields = fieldsOf(SCHEMA);
    expect(
      checkAnswer(fields, {
        ...initialValues(fields),
        name: ' Ada ',
        email: 'ada@example.com',
        age: '36',
        hero: 'h2',
        fish: ['f3'],
      }),
    ).toEqual({
      content: { name: 'Ada', email: 'ada@example.com', age: 36, agree: true, hero: 'h2', pet: 'p2', fish: ['f3'] },
    });
    expect(checkAnswer(fieldsOf({ type: 'object', properties: { n: { type: 'integer' } } }), { n: '2.5' })).toEqual({
      errors: { n: 'Enter a whole number.' },
    });
  });

  it('refuses a schema outside the spec, saying why', () => {
    const reason = (schema: unknown) => {
      const parsed = parseElicitationSchema(schema);
      return parsed.ok ? undefined : parsed.reason;
    };
    expect(reason({ type: 'array' })).toBe('the requested schema is not an object schema');
    expect(reason({ type: 'object', properties: { address: { type: 'object', properties: {} } } })).toBe(
      'the field "address" has the type "object", which the spec does not allow',
    );
    expect(reason({ type: 'object', properties: { phone: { type: 'string', format: 'phone' } } })).toBe(
      'the field "phone" has the format "phone", which the spec does not allow',
    );
    expect(reason({ type: 'object', properties: {}, required: ['phone'] })).toBe(
      'it requires "phone", which it does not define',
    );
  });
});
