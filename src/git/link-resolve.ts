/**
 * Where a symlink stored in a git tree leads once checked out, worked out
 * from the tree alone (nothing is checked out): the link's folder plus its
 * target, walked a segment at a time the way the kernel walks a path, so a
 * link met on the way (a chain, a symlinked folder, `x/..` after a link) is
 * followed. Names are folded as in protected-paths.ts, so `.Claude` and
 * `.claude` are the same place.
 */
import { foldPath } from './protected-paths.js';

/** Linux's limit on links followed in one lookup (ELOOP). */
export const MAX_HOPS = 40;

export type LinkEnd =
  /** Inside the repository: the folded segments of the place reached ([] is the root). */
  | { kind: 'inside'; parts: string[] }
  /** An absolute target, or `..` above the root: a place no diff of this repository shows. */
  | { kind: 'outside'; target: string }
  /** More than MAX_HOPS links on the way (a loop, or a chain too long to trust). */
  | { kind: 'loop' };

/** Symlinks of one tree: folded path (segments joined by `/`) → target text. */
export type LinkTable = ReadonlyMap<string, string>;

const isAbsolute = (target: string): boolean => /^([\\/]|[a-zA-Z]:|~)/.test(target);
const rawSegments = (target: string): string[] => target.split(/[\\/]+/);

/** Where the link at `path` leads in a tree whose links are `links`. */
export function resolveLink(path: string, links: LinkTable): LinkEnd {
  const start = links.get(foldPath(path).join('/'));
  if (start === undefined) return { kind: 'inside', parts: foldPath(path) };
  return walk(foldPath(path).slice(0, -1), start, links);
}

function walk(dir: string[], target: string, links: LinkTable): LinkEnd {
  if (isAbsolute(target)) return { kind: 'outside', target };
  const out = [...dir];
  const todo = rawSegments(target);
  let hops = 1;
  while (todo.length > 0) {
    const raw = todo.shift()!;
    if (raw === '' || raw === '.') continue;
    if (raw === '..') {
      if (out.length === 0) return { kind: 'outside', target };
      out.pop();
      continue;
    }
    const segments = foldPath(raw);
    if (segments.length === 0) continue;
    out.push(...segments);
    const next = links.get(out.join('/'));
    if (next === undefined) continue;
    if (++hops > MAX_HOPS) return { kind: 'loop' };
    if (isAbsolute(next)) return { kind: 'outside', target: next };
    out.splice(out.length - segments.length);
    todo.unshift(...rawSegments(next));
  }
  return { kind: 'inside', parts: out };
}

/** One string per distinct end, to tell whether a branch changed where a link leads. */
export function endKey(end: LinkEnd): string {
  if (end.kind === 'inside') return `in:${end.parts.join('/')}`;
  return end.kind === 'outside' ? `out:${end.target}` : 'loop';
}
