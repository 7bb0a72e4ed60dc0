import type { z } from 'zod';
import type { FileProblem, Outcome } from './types.js';

/** One line per problem: `.tasks/foo.json: blockedBy.0: must match …`. */
export function formatProblem(p: FileProblem): string {
  return p.field ? `${p.file}: ${p.field}: ${p.message}` : `${p.file}: ${p.message}`;
}

/** Every zod issue as a problem naming the file and the field (unknown keys name themselves). */
export function problemsFromZod(file: string, error: z.ZodError): FileProblem[] {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const at = issue.path.length ? `${issue.path.join('.')}.` : '';
      return { file, field: issue.keys.map((k) => at + k).join(', '), message: 'unknown field' };
    }
    return issue.path.length
      ? { file, field: issue.path.join('.'), message: issue.message }
      : { file, message: issue.message };
  });
}

/** Validates `raw` with `schema`; failures are the problems of `file`. */
export function parseWith<S extends z.ZodType>(
  schema: S,
  raw: unknown,
  file: string,
): Outcome<z.output<S>, FileProblem[]> {
  const parsed = schema.safeParse(raw);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, error: problemsFromZod(file, parsed.error) };
}

/** Problems of a caller's input (no file): `field: message; field: message`. */
export function describeInputError(error: z.ZodError): string {
  return problemsFromZod('', error)
    .map((p) => (p.field ? `${p.field}: ${p.message}` : p.message))
    .join('; ');
}
