import { git } from './run-git.js';
import type { Outcome } from './types.js';

/** One entry of `git worktree list --porcelain`. */
export interface RegisteredWorktree {
  path: string;
  head: string | null;
  /** Full ref (`refs/heads/…`), or null when detached. */
  branchRef: string | null;
  prunable: boolean;
}

/** Every worktree git knows of in this repository, the main checkout first. */
export async function registeredWorktrees(repoRoot: string): Promise<Outcome<RegisteredWorktree[]>> {
  const listed = await git(repoRoot, ['worktree', 'list', '--porcelain', '-z'], { raw: true });
  if (!listed.ok) return listed;
  return { ok: true, value: parsePorcelain(listed.value) };
}

/** Parses `-z` porcelain output: attributes separated by NUL, records by an empty one. */
export function parsePorcelain(output: string): RegisteredWorktree[] {
  const records: RegisteredWorktree[] = [];
  let current: RegisteredWorktree | null = null;
  for (const field of output.split('\0')) {
    if (field === '') {
      if (current) records.push(current);
      current = null;
      continue;
    }
    const space = field.indexOf(' ');
    const key = space === -1 ? field : field.slice(0, space);
    const value = space === -1 ? '' : field.slice(space + 1);
    if (key === 'worktree') current = { path: value, head: null, branchRef: null, prunable: false };
    else if (current) applyAttribute(current, key, value);
  }
  if (current) records.push(current);
  return records;
}

function applyAttribute(record: RegisteredWorktree, key: string, value: string): void {
  if (key === 'HEAD') record.head = value;
  else if (key === 'branch') record.branchRef = value;
  else if (key === 'prunable') record.prunable = true;
}

/** The worktree (main checkout included) that has `branch` checked out, if any. */
export async function worktreeOnBranch(repoRoot: string, branch: string): Promise<Outcome<string | null>> {
  const listed = await registeredWorktrees(repoRoot);
  if (!listed.ok) return listed;
  const found = listed.value.find((w) => w.branchRef === `refs/heads/${branch}`);
  return { ok: true, value: found?.path ?? null };
}
