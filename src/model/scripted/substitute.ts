/** Capture groups of a rule's regexes, substituted into its answer (`$1`, `${name}`). */

export interface Captures {
  /** `$0` is the whole match. */
  numbered: readonly (string | undefined)[];
  named: Readonly<Record<string, string | undefined>>;
}

export const NO_CAPTURES: Captures = { numbered: [], named: {} };

/** Captures of `match` (numbered from it; from `conversation` when there is no `match`), names from both. */
export function capturesOf(match: RegExpExecArray | null, conversation: RegExpExecArray | null): Captures {
  const numbered = match ?? conversation;
  return {
    numbered: numbered ? [...numbered] : [],
    named: { ...conversation?.groups, ...match?.groups },
  };
}

const REFERENCE = /\$(?:(\$)|(\d)|\{(\w+)\})/g;

/** Replaces references; one to a group that does not exist stays as written. */
export function substitute(text: string, captures: Captures): string {
  return text.replace(REFERENCE, (whole, dollar?: string, digit?: string, name?: string) => {
    if (dollar) return '$';
    const key = digit ?? name!;
    if (/^\d+$/.test(key)) {
      const n = Number(key);
      return n < captures.numbered.length ? (captures.numbered[n] ?? '') : whole;
    }
    return key in captures.named ? (captures.named[key] ?? '') : whole;
  });
}

/** Substitutes in every string of a JSON-like value (objects and arrays are copied). */
export function substituteDeep(value: unknown, captures: Captures): unknown {
  if (typeof value === 'string') return substitute(value, captures);
  if (Array.isArray(value)) return value.map((v) => substituteDeep(v, captures));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteDeep(v, captures)]));
  }
  return value;
}
