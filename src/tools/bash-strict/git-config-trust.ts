/**
 * A repository's own config can make read-only git commands run programs:
 * `core.fsmonitor` (status, diff), `diff.<driver>.textconv` and
 * `diff.external` / `diff.<driver>.command` (diff, log -p, show, blame),
 * `filter.<driver>.clean` / `process` (status and diff refresh the index),
 * `log.showSignature` + `gpg.program` (log), `core.pager` / `pager.<cmd>`,
 * and `include` / `includeIf` can pull in any file. Anyone who can write
 * files in the working directory can plant such a config (a nested
 * `sub/.git/config`, or a bare-repository layout), so before calling a git
 * command read-only the classifier reads the config of every repository git
 * could pick from that directory and refuses if one names any of these keys.
 * The user's global and system config are the user's own and are trusted.
 */
import { existsSync, statSync } from 'node:fs';
import { readTeamFileSync } from '../../store/team-file.js';
import path from 'node:path';

/** A key (at a line's start or after a section header) or an include section: git config syntax. */
const RISKY_KEY =
  /(^|\])[ \t]*(fsmonitor|textconv|external|command|clean|smudge|process|pager|program|showsignature)[ \t\r]*($|[=;#])/im;
const INCLUDE = /^[ \t]*\[[ \t]*include(if)?\b/im;
const MAX_CONFIG_BYTES = 1_000_000;

/** Why git run in `dir` could run a program from its repository's config, or null. */
export function repositoryConfigRisk(dir: string): string | null {
  if (process.env.GIT_DIR !== undefined || process.env.GIT_CONFIG !== undefined)
    return 'GIT_DIR or GIT_CONFIG is set';
  for (const gitDir of candidateGitDirs(dir)) {
    for (const file of configFiles(gitDir)) {
      const text = readConfig(file);
      if (text === null) return `${file} could not be read`;
      const hit = RISKY_KEY.exec(text);
      if (hit !== null) return `${file} sets ${hit[2]}, which can run a program`;
      if (INCLUDE.test(text)) return `${file} includes other config files`;
    }
  }
  return null;
}

/** Every git directory git's discovery could use from `dir`: bare layouts on the way up, then the nearest `.git`. */
function candidateGitDirs(dir: string): string[] {
  const found: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (looksLikeGitDir(d)) found.push(d);
    const dotGit = path.join(d, '.git');
    if (existsSync(dotGit)) {
      found.push(resolveDotGit(dotGit));
      return found;
    }
    if (path.dirname(d) === d) return found;
  }
}

function looksLikeGitDir(d: string): boolean {
  return existsSync(path.join(d, 'HEAD')) && existsSync(path.join(d, 'config'));
}

/** A `.git` folder, or the folder a `.git` file (worktree, submodule) points to. */
function resolveDotGit(dotGit: string): string {
  if (statSync(dotGit).isDirectory()) return dotGit;
  const line = /^gitdir:\s*(.+)$/m.exec(readConfig(dotGit) ?? '');
  return line === null ? dotGit : path.resolve(path.dirname(dotGit), (line[1] as string).trim());
}

function configFiles(gitDir: string): string[] {
  const files = [path.join(gitDir, 'config'), path.join(gitDir, 'config.worktree')];
  const common = readConfig(path.join(gitDir, 'commondir'));
  if (common !== null) {
    const commonDir = path.resolve(gitDir, common.trim());
    files.push(path.join(commonDir, 'config'), path.join(commonDir, 'config.worktree'));
  }
  return files.filter((f) => existsSync(f));
}

function readConfig(file: string): string | null {
  try {
    if (!existsSync(file)) return null;
    // Regular files only, within the cap (a FIFO must not hang the check; a refused file refuses the command).
    const read = readTeamFileSync(file, file, MAX_CONFIG_BYTES);
    return read.kind === 'text' ? read.text : null;
  } catch {
    return null;
  }
}

/**
 * Set for every command the bash tool runs: git never runs an fsmonitor
 * hook and `git status` does not rewrite the index (optional locks off).
 * Defence in depth under the config check above.
 */
export function safeGitEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const extra: NodeJS.ProcessEnv = { GIT_OPTIONAL_LOCKS: '0' };
  if (env.GIT_CONFIG_COUNT === undefined)
    Object.assign(extra, {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.fsmonitor',
      GIT_CONFIG_VALUE_0: 'false',
    });
  return extra;
}
