/**
 * The checks `teamd start`, `teamd run` and `teamd doctor` make before any
 * work: each says what it looked at, whether it passed, and how to fix it.
 */
export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface Check {
  /** What was checked, e.g. `model claude-sonnet-5-5`, `git repository`. */
  name: string;
  status: CheckStatus;
  /** What was found (one line). */
  detail: string;
  /** What to do about a failure or warning. */
  fix?: string;
}

export const ok = (name: string, detail: string): Check => ({ name, status: 'ok', detail });
export const warn = (name: string, detail: string, fix?: string): Check => ({
  name,
  status: 'warn',
  detail,
  ...(fix ? { fix } : {}),
});
export const failed = (name: string, detail: string, fix: string): Check => ({
  name,
  status: 'fail',
  detail,
  fix,
});
