/**
 * The process groups this thread started that may still be running. A
 * teammate's worker reports them to the lead, which kills them when the
 * worker dies: a thread that is terminated runs no cleanup of its own, and
 * its commands' process groups (detached, by design) would outlive it.
 */
const live = new Set<number>();
let listener: ((pgids: number[]) => void) | null = null;

/** Called with the whole set after every change (one listener: the thread's supervisor link). */
export function onLiveGroupsChange(fn: ((pgids: number[]) => void) | null): void {
  listener = fn;
}

export function groupStarted(pgid: number): void {
  live.add(pgid);
  listener?.([...live]);
}

export function groupEnded(pgid: number): void {
  if (live.delete(pgid)) listener?.([...live]);
}

export function liveGroups(): number[] {
  return [...live];
}
