/**
 * Commands a repository's config can name per driver, which `.gitattributes`
 * (a file any teammate edits) selects for its files: a filter's clean/smudge
 * command runs on `git add`, `git status` and checkout, a merge driver on
 * `git merge`. Having names of their own, they cannot be switched off by a
 * fixed `-c` setting, and switching them off silently would change what is
 * committed (an LFS pointer would become the whole file). So teamd's git
 * refuses to run while the repository's own config (local or worktree scope)
 * defines one. Drivers in the user's global or system config (where
 * `git lfs install` puts them) are the user's, not the repository's, and run.
 */
import type { GitRun } from './run-git.js';
import type { Outcome } from './types.js';

const DRIVER_KEY = /^(filter\.[^\n]+\.(clean|smudge|process)|merge\.[^\n]+\.driver)$/i;
const REPOSITORY_SCOPES = new Set(['local', 'worktree']);

export interface ConfigSetting {
  key: string;
  scope: string;
  /** Where git read it, e.g. `file:.git/config`. */
  origin: string;
}

/** The arguments that list every setting with its scope and file. */
export const CONFIG_LIST_ARGS = ['config', '--list', '--show-scope', '--show-origin', '-z'];

/** Refuses, naming key and file, when the listing shows a driver command in a repository scope. */
export function refuseRepositoryDrivers(settings: ConfigSetting[]): Outcome<void> {
  const found = settings.filter((s) => REPOSITORY_SCOPES.has(s.scope) && DRIVER_KEY.test(s.key));
  if (found.length === 0) return { ok: true, value: undefined };
  const named = found.map((s) => `${s.key} (${s.origin.replace(/^file:/, '')})`).join(', ');
  return {
    ok: false,
    error:
      `the repository's git config defines ${named}: a command git would run for files a teammate ` +
      `chooses through .gitattributes, and teamd's git runs no command the repository configures. ` +
      `Move it to your global config (git config --global) if you trust it, or remove it.`,
  };
}

/** Parses `git config --list --show-scope --show-origin -z`: `scope\0origin\0key\nvalue\0` per entry. */
export function parseConfigList(output: string): ConfigSetting[] {
  const fields = output.split('\0');
  const settings: ConfigSetting[] = [];
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const entry = fields[i + 2] ?? '';
    const newline = entry.indexOf('\n');
    settings.push({
      scope: fields[i] ?? '',
      origin: fields[i + 1] ?? '',
      key: newline === -1 ? entry : entry.slice(0, newline),
    });
  }
  return settings;
}

/** The verdict on a listing run: a listing that failed is a refusal too (nothing is known). */
export function verdictOf(listed: GitRun): Outcome<void> {
  if (listed.exitCode !== 0) {
    const why = listed.stderr.trim() || `exit code ${listed.exitCode}`;
    return { ok: false, error: `git config --list: ${why}` };
  }
  return refuseRepositoryDrivers(parseConfigList(listed.stdout));
}
