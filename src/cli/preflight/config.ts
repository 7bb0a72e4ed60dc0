import type { TeamConfig } from '../../config/schema.js';
import { resolveTeamConfig, type ConfigOverrides } from '../../lead/team-config.js';
import { failed, ok, type Check } from './types.js';

/** `.team/config.json` with the command line over it: a typo or a bad value, named with its field. */
export async function checkConfig(
  repoRoot: string,
  overrides: ConfigOverrides,
): Promise<{ check: Check; config: TeamConfig | null }> {
  const resolved = await resolveTeamConfig(repoRoot, overrides);
  if (!resolved.ok)
    return {
      check: failed(
        'config',
        resolved.error,
        'fix the field named above in .team/config.json (see docs/TEAM.md, "Configuration"), or run `teamd validate`',
      ),
      config: null,
    };
  const n = resolved.config.teammates.length;
  return {
    check: ok('config', `${n} teammate${n === 1 ? '' : 's'}, model ${resolved.config.model}`),
    config: resolved.config,
  };
}

/** `--teammates <n>`: a whole number from 0 to 64, checked here and not only in the daemon. */
export function checkTeammatesFlag(n: string | undefined): Check | null {
  if (n === undefined) return null;
  const v = Number(n);
  if (Number.isInteger(v) && v >= 0 && v <= 64) return null;
  return failed(
    '--teammates',
    `must be a whole number from 0 to 64, got "${n}"`,
    'pass --teammates with a number such as 3',
  );
}
