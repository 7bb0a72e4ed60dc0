/**
 * Validation of the options objects a program hands teamd's library API
 * (`AgentRuntime`, `createModelClient`, `Team.open`, `createTeammate`). A bad
 * option is a programmer error: it throws an `OptionsError` at once, naming
 * the option and what it accepts, e.g.
 * `AgentRuntime options: permissionPolicy.defaultMode: expected one of "default", "acceptEdits", …`.
 */
import { z } from 'zod';

export class OptionsError extends TypeError {
  readonly code = 'ERR_TEAMD_OPTIONS';
  constructor(
    /** Whose options: `AgentRuntime options`, `Team.open options`, … */
    readonly owner: string,
    /** One line per problem: `field: message`. */
    readonly problems: string[],
  ) {
    super(`${owner}: ${problems.join('; ')}`);
    this.name = 'OptionsError';
  }
}

/** One problem as `path: message`, with the allowed values spelled out where zod knows them. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.');
  const at = (field: string) => (field ? `${field}: ` : '');
  if (issue.code === 'unrecognized_keys') {
    const prefix = path ? `${path}.` : '';
    return issue.keys.map((k) => `${prefix}${k}: unknown option`).join('; ');
  }
  if (issue.code === 'invalid_value')
    return `${at(path)}expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(inputOf(issue))}`;
  if (issue.code === 'invalid_union' && issue.errors.length) {
    const inner = issue.errors.flat().map(describeIssue);
    return `${at(path)}${issue.message} (${[...new Set(inner)].join(' | ')})`;
  }
  return `${at(path)}${issue.message}`;
}

const inputOf = (issue: z.core.$ZodIssue): unknown => (issue as { input?: unknown }).input;

/** Parses `value` with `schema`, or throws an `OptionsError` listing every problem. */
export function parseOptions<S extends z.ZodType>(owner: string, schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value ?? {}, { reportInput: true });
  if (parsed.success) return parsed.data;
  throw new OptionsError(owner, parsed.error.issues.map(describeIssue));
}

/** A function option (callbacks): zod checks only that it is one. */
export const fn = <T>(what: string) =>
  z.custom<T>((v) => typeof v === 'function', { message: `expected a function (${what})` });

/** An object option checked by its owner (nested options with their own validation). */
export const objectOf = <T>(what: string) =>
  z.custom<T>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), {
    message: `expected an object (${what})`,
  });

/** An object with these methods (a ModelClient, a HookRunner …). */
export const withMethods = <T>(what: string, methods: string[]) =>
  z.custom<T>(
    (v) =>
      typeof v === 'object' &&
      v !== null &&
      methods.every((m) => typeof (v as Record<string, unknown>)[m] === 'function'),
    { message: `expected ${what} (an object with ${methods.map((m) => `${m}()`).join(', ')})` },
  );

/**
 * A nested options object checked against `schema` field by field (its
 * errors name `option.field`), passed on as given: the owner keeps its own
 * defaults and functions.
 */
export const checkedBy = <T>(schema: z.ZodType, what: string) =>
  objectOf<T>(what).superRefine((value, ctx) => {
    const checked = schema.safeParse(value);
    if (checked.success) return;
    for (const issue of checked.error.issues)
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  });
