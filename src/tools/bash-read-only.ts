/**
 * Which command lines only look: they print, list or compare and change no
 * file, no git state, no process, and run no program of anyone's choosing.
 * A whitelist: the strict reader and the option tables in bash-strict/
 * decide, and whatever they do not fully understand is not read-only.
 * docs/TOOLS.md ("Read-only commands") argues why what remains is safe.
 */
import { checkReadOnly, type CheckPlace } from './bash-strict/check.js';
import type { Verdict } from './bash-strict/types.js';

export type { CheckPlace, Verdict };

/** Read-only, or the first reason it is not (for logs and tests). */
export function readOnlyVerdict(line: string, place: CheckPlace = {}): Verdict {
  return checkReadOnly(line, place);
}

export { safeGitEnv } from './bash-strict/git-config-trust.js';
