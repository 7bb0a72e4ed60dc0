/**
 * Before any work: the flags, the config, the git repository and the models.
 * `teamd start` and `teamd run` stop at the first failing group, printing the
 * fix, before they fork a daemon or touch a task; `teamd doctor` shows them all.
 */
import type { TeamConfig } from '../../config/schema.js';
import type { ConfigOverrides } from '../../lead/team-config.js';
import { checkConfig, checkTeammatesFlag } from './config.js';
import { checkTeamFolders } from './folders.js';
import { checkGit } from './git.js';
import { checkModels, modelUses, type ModelCheckOptions } from './model.js';
import type { Check } from './types.js';

export interface PreflightInput extends ConfigOverrides, ModelCheckOptions {
  repoRoot: string;
  /** `--teammates` as typed (checked before it becomes a number). */
  teammatesFlag?: string;
  /** The lead runs its own agent (`teamd run` plans with it). */
  leadAgent?: boolean;
}

export interface Preflight {
  checks: Check[];
  config: TeamConfig | null;
  ok: boolean;
}

export async function preflight(input: PreflightInput): Promise<Preflight> {
  const flag = checkTeammatesFlag(input.teammatesFlag);
  if (flag) return done([flag], null);
  const { check, config } = await checkConfig(input.repoRoot, input);
  if (!config) return done([check], null);
  const folders = checkTeamFolders(input.repoRoot);
  const git = await checkGit(input.repoRoot, config);
  const models = await checkModels(input.repoRoot, modelUses(config, input.leadAgent ?? false), input);
  return done([check, folders, git, ...models], config);
}

const done = (checks: Check[], config: TeamConfig | null): Preflight => ({
  checks,
  config,
  ok: checks.every((c) => c.status !== 'fail'),
});

/** The failures, each with its fix, for a command's error message. */
export function describeFailures(checks: Check[]): string {
  return checks
    .filter((c) => c.status === 'fail')
    .map((c) => `${c.name}: ${c.detail}${c.fix ? `\n  fix: ${c.fix}` : ''}`)
    .join('\n');
}
