/**
 * How far a one-shot run got, for its code cache (code-cache.ts): a cache
 * holds the functions its run compiled, so a cache made by a run that never
 * called a tool leaves every later run to compile the tool turn's path (the
 * first tool turn of `agent -p` ~1 ms slower, docs/DECISIONS.md "The code
 * cache remembers how far its run got"). A run that gets further than the
 * run that made the cache writes it again, once.
 */

/** The stages a run can reach, in order. */
export const RUN_DEPTH = { started: 0, answered: 1, usedTools: 2 } as const;

let reached: number = RUN_DEPTH.started;

/** Notes that this run reached `depth` (the deepest noted counts). */
export function noteRunDepth(depth: number): void {
  if (depth > reached) reached = depth;
}

/** How far this run got (read by the launcher when the process exits). */
export const runDepth = (): number => reached;
