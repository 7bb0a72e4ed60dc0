/**
 * The additional directories of a teammate, as `claude -p --add-dir` and
 * `teamd agent -p --add-dir` take them: its config's
 * `permissions.additionalDirectories` (else the team's), then the
 * repository's `.claude/settings.json` and `settings.local.json`
 * `permissions.additionalDirectories`. Relative paths are the repository's
 * (the teammate works in a worktree elsewhere), so each is passed on as a
 * real absolute path, once; one that does not exist is left out with a
 * warning naming where it came from.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { checkAddedDir } from '../config/added-dir.js';
import type { WorkerData } from './types.js';

const SettingsSchema = z.looseObject({
  permissions: z.looseObject({ additionalDirectories: z.array(z.string()).optional() }).optional(),
});

export interface TeammateDirs {
  dirs: string[];
  warnings: string[];
}

interface Named {
  dir: string;
  source: string;
}

/** What of a teammate's `WorkerData` says where its directories are. */
export interface DirsSource {
  repoRoot: string;
  team: { permissions: Pick<WorkerData['team']['permissions'], 'additionalDirectories'> };
  teammate: { name: string; permissions?: Pick<WorkerData['team']['permissions'], 'additionalDirectories'> | undefined };
}

export function teammateAddedDirs(data: DirsSource): TeammateDirs {
  const own = data.teammate.permissions?.additionalDirectories;
  const configured = own ?? data.team.permissions.additionalDirectories ?? [];
  const source = own === undefined ? '.team/config.json: permissions' : `.team/config.json: teammate ${data.teammate.name}: permissions`;
  const named: Named[] = [
    ...configured.map((dir) => ({ dir, source })),
    ...settingsDirs(data.repoRoot, 'settings.json'),
    ...settingsDirs(data.repoRoot, 'settings.local.json'),
  ];
  return resolveDirs(named, data.repoRoot);
}

function resolveDirs(named: Named[], repoRoot: string): TeammateDirs {
  const out: TeammateDirs = { dirs: [], warnings: [] };
  for (const { dir, source } of named) {
    const checked = checkAddedDir(dir, repoRoot);
    if (!checked.ok) out.warnings.push(`${source}.additionalDirectories: ${checked.error}; left out`);
    else if (!out.dirs.includes(checked.value)) out.dirs.push(checked.value);
  }
  return out;
}

/** A settings file that is missing, unreadable or of another shape names no directory (`teamd validate` reports it). */
function settingsDirs(repoRoot: string, name: string): Named[] {
  let text: string;
  try {
    text = readFileSync(join(repoRoot, '.claude', name), 'utf8');
  } catch {
    return [];
  }
  try {
    const parsed = SettingsSchema.safeParse(JSON.parse(text));
    const dirs = parsed.success ? (parsed.data.permissions?.additionalDirectories ?? []) : [];
    return dirs.map((dir) => ({ dir, source: `.claude/${name}: permissions` }));
  } catch {
    return [];
  }
}
