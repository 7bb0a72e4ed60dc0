/**
 * The `ssh` teammate host: the process host (`teamd teammate --stdio`) on
 * another machine, reached with the OpenSSH client. The lead stays the only
 * writer of the team's files and the only holder of the model key; the remote
 * gets code and nothing else, by git:
 *
 *   lead repo ──bundle of the task branch──▶ remote bare clone + worktree
 *   remote worktree ──bundle of the new commits──▶ lead's task worktree (fast-forward)
 *
 * and the lead's merge queue merges the branch as it merges any other.
 *
 * On the remote, everything teamd keeps lives under `<remoteDir>/<teamId>/`:
 *   repo.git/               a bare clone, fed by bundles
 *   worktrees/<slug>/       one per task branch, removed after it came back
 *   pids/<teammate>.pgid    the process group of the running teammate (ended at stop/restart)
 */
export { SshHostConfigSchema, type SshHostConfig, type SshHostInput } from '../../../config/ssh-host.js';

/** Where a teammate's task runs on the remote. */
export interface RemoteWorktree {
  /** Absolute path on the remote. */
  path: string;
  branch: string;
}
