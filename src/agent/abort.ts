/**
 * The abort chain: run → sibling group → each tool. A child aborts when its
 * parent does (with the parent's reason) and may also abort alone (a failing
 * bash call aborts its group, not the run).
 */
export interface LinkedAbort {
  controller: AbortController;
  signal: AbortSignal;
  /** Detach from the parent once the child's work is over (no listener leak on long runs). */
  release(): void;
}

export function linkedAbort(parent: AbortSignal): LinkedAbort {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(parent.reason);
  if (parent.aborted) onAbort();
  else parent.addEventListener('abort', onAbort, { once: true });
  return {
    controller,
    signal: controller.signal,
    release: () => parent.removeEventListener('abort', onAbort),
  };
}

/** Resolves when `signal` aborts (never rejects); for racing work against an abort. */
export function whenAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
