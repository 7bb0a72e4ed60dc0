/**
 * Builds a ToolContext from the parts a caller has. The runtime passes its own
 * signal, progress sink and shared session; tests pass only what they check.
 */
import { realpathSync } from 'node:fs';
import type { Outcome } from '../store/types.js';
import { createFileStateTracker } from './file-state.js';
import { containingRoot, resolveInside } from './paths.js';
import type { ToolContext } from './types.js';

/** `root` is realpath'd so symlink checks compare like with like; `cwd` defaults to root. */
export function createToolContext(partial: Partial<ToolContext> & { root: string }): ToolContext {
  // The native realpath is one call; the JS one stats every component of the path.
  const root = realpathSync.native(partial.root);
  return {
    root,
    ...(partial.extraRoots === undefined ? {} : { extraRoots: partial.extraRoots.map((d) => realpathSync.native(d)) }),
    cwd: partial.cwd === undefined ? root : realpathSync.native(partial.cwd),
    signal: partial.signal ?? new AbortController().signal,
    onProgress: partial.onProgress ?? (() => {}),
    fileState: partial.fileState ?? createFileStateTracker(),
    agentName: partial.agentName ?? 'agent',
    session: partial.session ?? new Map<string, unknown>(),
    services: partial.services ?? {},
  };
}

/** The session key under which bash keeps its working directory between calls. */
export const SESSION_CWD_KEY = 'cwd';

/** The directory relative paths start from: where the last bash `cd` left off, else `ctx.cwd`. */
export function currentCwd(ctx: ToolContext): string {
  const kept = ctx.session.get(SESSION_CWD_KEY);
  return typeof kept === 'string' ? kept : ctx.cwd;
}

export function setCurrentCwd(ctx: ToolContext, dir: string): void {
  ctx.session.set(SESSION_CWD_KEY, dir);
}

/** `p` as a real path inside the root or an added directory (relative to the current directory), or why not. */
export function resolveForTool(ctx: ToolContext, p: string): Outcome<string> {
  return resolveInside(ctx.root, currentCwd(ctx), p, ctx.extraRoots ?? []);
}

/** The root (the working directory or an added one) that holds the real path `target`; the working directory when none. */
export function rootOf(ctx: ToolContext, target: string): string {
  return containingRoot([ctx.root, ...(ctx.extraRoots ?? [])], target) ?? ctx.root;
}
