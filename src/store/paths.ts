import { join, resolve } from 'node:path';
import type { Outcome } from './types.js';
import { IdSchema } from './types.js';

/** The absolute locations of everything teamd keeps in a repository. */
export interface TeamPaths {
  root: string;
  tasks: string;
  mailboxes: string;
  /** Delivered messages, one `<agent>.jsonl` per recipient. */
  archive: string;
  cron: string;
  /** `.team/`: the config and its JSON Schema. */
  team: string;
  /** `.team/state/`: pid, heartbeats, event log (git-ignored). */
  state: string;
  worktrees: string;
  /** The config file itself, `.team/config.json`. */
  config: string;
}

export function teamPaths(repoRoot: string): TeamPaths {
  const root = resolve(repoRoot);
  return {
    root,
    tasks: join(root, '.tasks'),
    mailboxes: join(root, '.mailboxes'),
    archive: join(root, '.mailboxes', 'archive'),
    cron: join(root, '.cron'),
    team: join(root, '.team'),
    state: join(root, '.team', 'state'),
    worktrees: join(root, '.worktrees'),
    config: join(root, '.team', 'config.json'),
  };
}

/** Why `id` is not a valid id (every rule it breaks), or undefined when it is valid. */
export function invalidIdReason(id: string): string | undefined {
  const parsed = IdSchema.safeParse(id);
  return parsed.success ? undefined : parsed.error.issues.map((i) => i.message).join('; ');
}

/**
 * The file `<folder>/<id><ext>`, only when `id` is a valid id: the id is checked
 * before it touches a path, so `../x`, `/etc/passwd` or `a/b` can never escape.
 */
export function fileFor(folder: string, id: string, ext = '.json'): Outcome<string> {
  const reason = invalidIdReason(id);
  if (reason !== undefined) return { ok: false, error: `invalid id ${JSON.stringify(id)}: ${reason}` };
  return { ok: true, value: join(folder, `${id}${ext}`) };
}
