/**
 * The driver check (config-list.ts) of the worktrees runGit pins, cached per
 * git dir: listed again only when one of the config files the listing came
 * from (or the repository's and the worktree's own config, should they
 * appear) changed.
 */
import { statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { parseConfigList, verdictOf } from './config-list.js';
import type { GitRun } from './run-git.js';
import type { Outcome } from './types.js';

interface Verdict {
  files: string[];
  stamp: string;
  verdict: Outcome<void>;
}
const verdicts = new Map<string, Verdict>();
const COMMAND_LINE_ORIGIN = 'command line:';
const MAX_REMEMBERED = 256;

/**
 * The driver check for the worktree whose git dir is `gitDir` (of the common
 * dir `common`), `list` running the listing there; cached by the files'
 * stamps.
 */
export async function checkDriversCached(
  cwd: string,
  gitDir: string,
  common: string,
  list: () => Promise<GitRun>,
): Promise<Outcome<void>> {
  const known = verdicts.get(gitDir);
  if (known && known.stamp === stampOf(known.files)) return known.verdict;
  const listed = await list();
  const origins = parseConfigList(listed.exitCode === 0 ? listed.stdout : '')
    .map((s) => s.origin.replace(/^file:/, ''))
    .filter((o) => o !== '' && o !== COMMAND_LINE_ORIGIN);
  const files = [
    ...new Set([
      join(common, 'config'),
      join(gitDir, 'config.worktree'),
      ...origins.map((o) => (isAbsolute(o) ? o : resolve(cwd, o))),
    ]),
  ];
  const verdict = verdictOf(listed);
  if (listed.exitCode !== 0) return verdict; // a failed listing is asked again next time
  if (verdicts.size >= MAX_REMEMBERED) verdicts.delete(verdicts.keys().next().value!);
  verdicts.set(gitDir, { files, stamp: stampOf(files), verdict });
  return verdict;
}

function stampOf(files: string[]): string {
  return files
    .map((f) => {
      try {
        const s = statSync(f, { bigint: true });
        return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
      } catch {
        return '-';
      }
    })
    .join('|');
}
