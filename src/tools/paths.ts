/**
 * Confinement of file paths to the agent's root. Every file tool resolves its
 * path here first, so `..`, absolute paths and symlinks cannot reach outside.
 */
import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { Outcome } from '../store/types.js';

/** True when `target` is `root` itself or lies below it (both already real paths). */
export function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * Resolves `p` (relative to `cwd`) to a real absolute path inside `root`, or
 * inside one of `extraRoots` (real paths: `--add-dir`, `additionalDirectories`).
 * For a path that does not exist yet, the deepest existing ancestor is
 * realpath'd, so a new file under a symlinked folder is judged by where the
 * folder really is.
 */
export function resolveInside(
  root: string,
  cwd: string,
  p: string,
  extraRoots: readonly string[] = [],
): Outcome<string> {
  if (p.trim() === '') return { ok: false, error: 'the path is empty' };
  if (p.includes('\0')) return { ok: false, error: `the path ${JSON.stringify(p)} contains a NUL byte` };
  const realRoot = realpathOrSelf(root);
  const wanted = path.resolve(cwd, p);
  const real = realpathOfDeepestAncestor(wanted);
  if (!real.ok) return real;
  if (containingRoot([realRoot, ...extraRoots], real.value) === null) {
    const via = real.value === wanted ? '' : ` (it resolves to ${real.value})`;
    return { ok: false, error: `${p} is outside ${placesOf(realRoot, extraRoots)}${via}; file tools may only use paths inside it` };
  }
  return real;
}

function placesOf(realRoot: string, extraRoots: readonly string[]): string {
  if (extraRoots.length === 0) return `the working directory ${realRoot}`;
  return `the working directory ${realRoot} and the added directories ${extraRoots.join(', ')}`;
}

/** The first of `roots` (real paths) that holds `target` (a real path), or null. */
export function containingRoot(roots: readonly string[], target: string): string | null {
  return roots.find((root) => isInside(root, target)) ?? null;
}

function realpathOfDeepestAncestor(absPath: string): Outcome<string> {
  const missing: string[] = [];
  let current = absPath;
  for (;;) {
    const real = tryRealpath(current);
    if (real !== null) return { ok: true, value: path.join(real, ...missing.reverse()) };
    if (isSymlink(current)) {
      // A dangling symlink: writing through it would create its target, wherever that is.
      return {
        ok: false,
        error: `${current} is a symlink whose target does not exist; refusing to follow it`,
      };
    }
    const parent = path.dirname(current);
    if (parent === current) return { ok: false, error: `no part of ${absPath} exists` };
    missing.push(path.basename(current));
    current = parent;
  }
}

function tryRealpath(p: string): string | null {
  try {
    return realpathSync.native(p);
  } catch {
    return null;
  }
}

function isSymlink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The real path of `p`, or `p` resolved when it does not exist. */
export function realpathOrSelf(p: string): string {
  return tryRealpath(p) ?? path.resolve(p);
}

/** A path as the model should see it: relative to `cwd` when inside it, else absolute. */
export function displayPath(cwd: string, absPath: string): string {
  return isInside(cwd, absPath) ? path.relative(cwd, absPath) || '.' : absPath;
}
