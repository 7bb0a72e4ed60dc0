/**
 * Builds a ToolContext from the parts a caller has. The runtime passes its own
 * signal, progress sink and shared session; tests pass only what they check.
 */
import { realpathSync } from 'node:fs';
import { createFileStateTracker } from './file-state.js';
import type { ToolContext } from './types.js';

/** `root` is realpath'd so symlink checks compare like with like; `cwd` defaults to root. */
export function createToolContext(partial: Partial<ToolContext> & { root: string }): ToolContext {
  // The native realpath is one call; the JS one stats every component of the path.
  const root = realpathSync.native(partial.root);
  return {
    root,
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
