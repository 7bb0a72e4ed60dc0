/**
 * `teamd agent --add-dir <directories...>` and `permissions.additionalDirectories`
 * of Claude Code's settings: more directories the file tools may reach, as in
 * `claude -p --add-dir ../lib`. Each is resolved against the working directory
 * and must be an existing directory: a bad flag value is an error naming the
 * flag, a bad settings entry a warning naming the file (that entry left out).
 */
import { realpathSync } from 'node:fs';
import { checkAddedDir } from '../config/added-dir.js';
import { CliError } from './cli-error.js';

export { checkAddedDir } from '../config/added-dir.js';

/** A settings entry: the directory as written and the file that names it. */
export interface SettingsDir {
  dir: string;
  source: string;
}

export interface AddedDirs {
  /** Real absolute paths, each once, the working directory itself left out. */
  dirs: string[];
  warnings: string[];
}

/** The flag's directories (a bad one throws) and the settings' (a bad one warns), deduplicated. */
export function addedDirs(flagDirs: readonly string[], settingsDirs: readonly SettingsDir[], cwd: string): AddedDirs {
  const realCwd = realpathSync.native(cwd);
  const seen = new Set<string>([realCwd]);
  const out: AddedDirs = { dirs: [], warnings: [] };
  const keep = (real: string): void => {
    if (!seen.has(real)) out.dirs.push(real);
    seen.add(real);
  };
  for (const dir of flagDirs) {
    const checked = checkAddedDir(dir, cwd);
    if (!checked.ok) throw new CliError(`teamd agent --add-dir: ${checked.error}`);
    keep(checked.value);
  }
  for (const { dir, source } of settingsDirs) {
    const checked = checkAddedDir(dir, cwd);
    if (checked.ok) keep(checked.value);
    else out.warnings.push(`${source}: permissions.additionalDirectories: ${checked.error}; left out`);
  }
  return out;
}
