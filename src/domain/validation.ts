import type { z } from 'zod';
import { ValidationError, type FieldIssue } from './errors';

/** Turns zod issues into field-named messages a person can act on. */
export function toFieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

/** Parses `value` or throws a ValidationError naming `subject` and each bad field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, subject: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(subject, toFieldIssues(result.error));
  return result.data;
}
