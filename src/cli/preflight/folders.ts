/** The team folders must be real folders inside the repository (a link is never followed). */
import { teamFolderRefusal } from '../../store/team-folders.js';
import { failed, ok, type Check } from './types.js';

export function checkTeamFolders(repoRoot: string): Check {
  const refusal = teamFolderRefusal(repoRoot);
  if (refusal === undefined)
    return ok('team folders', '.tasks .mailboxes .cron .team .worktrees: real folders (or absent)');
  return failed(
    'team folders',
    refusal,
    'replace each linked team folder by a real folder (teamd validate lists them)',
  );
}
