/**
 * Ways a branch changes what steers the agents without a protected path in
 * its diff (protected-paths.ts checks the names):
 * - a symlink, added or retargeted anywhere, that leads to a protected path,
 *   to the repository's root, or outside the repository (an absolute target,
 *   `..` above the root), through chains and symlinked folders: later writes
 *   through it, or tools reading it, reach what the diff never showed;
 * - a link that already existed but leads elsewhere after the merge, because
 *   the branch changed a link on its way;
 * - a submodule (gitlink) added or moved: its files are not in the diff;
 * - `.gitmodules` (where submodules come from) and any `.gitattributes`
 *   (checkout filters and encodings, merge drivers: how git writes and merges
 *   every file, protected ones included).
 * Links are compared in the tree the merge would make (the integration tip
 * with the branch's changes) against the integration tip itself.
 */
import { configuredReason } from './hook-scripts.js';
import { endKey, resolveLink, type LinkEnd } from './link-resolve.js';
import { foldPath, protectedReason } from './protected-paths.js';
import { git } from './run-git.js';
import { SAFE_DIFF_FLAGS } from './safe-git.js';
import type { Outcome } from './types.js';

const LINK_MODE = '120000';
const GITLINK_MODE = '160000';

/** One entry of `git diff --raw`: the path and its mode and blob after the change. */
export interface RawChange {
  path: string;
  oldMode: string;
  newMode: string;
  newBlob: string;
}

/** Parses `git diff --raw -z --no-renames` output. */
export function parseRawDiff(out: string): RawChange[] {
  const fields = out.split('\0');
  const changes: RawChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [oldMode = '', newMode = '', , newBlob = ''] = fields[i]!.replace(/^:/, '').split(' ');
    changes.push({ path: fields[i + 1]!, oldMode, newMode, newBlob });
  }
  return changes;
}

/** Why a change of this kind of file needs a person, whatever its content. */
export function gitFileReason(change: RawChange): string | undefined {
  const parts = foldPath(change.path);
  if (change.newMode === GITLINK_MODE) return 'a submodule (gitlink) whose files are not in this diff';
  if (parts.length === 1 && parts[0] === '.gitmodules') return '.gitmodules says where submodules come from';
  if (parts.length === 1 && parts[0] === '.worktreeinclude') return '.worktreeinclude picks which of your untracked files are copied into every worktree';
  if (parts.at(-1) === '.gitattributes')
    return '.gitattributes sets how git checks out and merges files (filters, encodings, merge drivers), protected ones included';
  return undefined;
}

/** What makes a link's end need a person, or undefined. */
export function linkEndReason(end: LinkEnd, hooksPath?: string, configured: ReadonlyMap<string, string> = new Map()): string | undefined {
  if (end.kind === 'loop') return 'a chain of symlinks too long to follow';
  if (end.kind === 'outside') return `a symlink to ${end.target}, outside the repository`;
  if (end.parts.length === 0) return "a symlink to the repository's root, through which protected files are reached";
  const where = end.parts.join('/');
  const why = protectedReason(where, hooksPath) ?? configuredReason(where, configured);
  return why === undefined ? undefined : `a symlink to ${where} (${why})`;
}

/**
 * `path: reason` for each link of the merged tree (`merged`) that leads
 * somewhere that needs a person and did not lead there in `before`.
 */
export function linkReasons(
  before: Map<string, Link>,
  merged: Map<string, Link>,
  hooksPath?: string,
  configured: ReadonlyMap<string, string> = new Map(),
): string[] {
  const targets = (m: Map<string, Link>) => new Map([...m].map(([k, l]) => [k, l.target]));
  const [was, now] = [targets(before), targets(merged)];
  return [...merged.values()].flatMap((link) => {
    const end = resolveLink(link.path, now);
    const why = linkEndReason(end, hooksPath, configured);
    if (why === undefined) return [];
    const old = before.has(foldPath(link.path).join('/')) ? endKey(resolveLink(link.path, was)) : undefined;
    return old === endKey(end) ? [] : [`${link.path}: ${why}`];
  });
}

export interface Link {
  path: string;
  target: string;
}

/** The symlinks of a commit's tree, by folded path. */
async function treeLinks(repoRoot: string, rev: string, blobs: Map<string, string>): Promise<Outcome<Map<string, Link>>> {
  const listed = await git(repoRoot, ['ls-tree', '-r', '-z', '--full-tree', rev], { raw: true });
  if (!listed.ok) return listed;
  const links = new Map<string, Link>();
  for (const entry of listed.value.split('\0')) {
    const [meta = '', path = ''] = entry.split('\t');
    const [mode, , blob = ''] = meta.split(' ');
    if (mode !== LINK_MODE) continue;
    const target = await blobText(repoRoot, blob, blobs);
    if (!target.ok) return target;
    links.set(foldPath(path).join('/'), { path, target: target.value });
  }
  return { ok: true, value: links };
}

async function blobText(repoRoot: string, blob: string, cache: Map<string, string>): Promise<Outcome<string>> {
  const known = cache.get(blob);
  if (known !== undefined) return { ok: true, value: known };
  const read = await git(repoRoot, ['cat-file', 'blob', blob], { raw: true });
  if (read.ok) cache.set(blob, read.value);
  return read;
}

/** The links after the merge: the integration tip's, with the branch's changes applied. */
async function mergedLinks(repoRoot: string, base: Map<string, Link>, changes: RawChange[], blobs: Map<string, string>): Promise<Outcome<Map<string, Link>>> {
  const merged = new Map(base);
  for (const c of changes) {
    const key = foldPath(c.path).join('/');
    if (c.newMode !== LINK_MODE) {
      merged.delete(key);
      continue;
    }
    const target = await blobText(repoRoot, c.newBlob, blobs);
    if (!target.ok) return target;
    merged.set(key, { path: c.path, target: target.value });
  }
  return { ok: true, value: merged };
}

/** `path: reason` lines for the links, submodules and git files `base...branch` changes. */
export async function protectedGitChanges(
  repoRoot: string,
  base: string,
  branch: string,
  hooksPath?: string,
  configured: ReadonlyMap<string, string> = new Map(),
): Promise<Outcome<string[]>> {
  const raw = await git(repoRoot, ['diff', ...SAFE_DIFF_FLAGS, '--raw', '-z', '--no-renames', '--no-abbrev', `${base}...${branch}`], { raw: true });
  if (!raw.ok) return raw;
  const changes = parseRawDiff(raw.value);
  const files = changes.flatMap((c) => {
    const why = gitFileReason(c);
    return why === undefined ? [] : [`${c.path}: ${why}`];
  });
  // Only a change with a link on either side changes which paths are links, so where any link leads.
  if (!changes.some((c) => c.oldMode === LINK_MODE || c.newMode === LINK_MODE)) return { ok: true, value: files };
  const blobs = new Map<string, string>();
  const before = await treeLinks(repoRoot, base, blobs);
  if (!before.ok) return before;
  const merged = await mergedLinks(repoRoot, before.value, changes, blobs);
  if (!merged.ok) return merged;
  return { ok: true, value: [...files, ...linkReasons(before.value, merged.value, hooksPath, configured)] };
}
