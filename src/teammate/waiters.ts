/**
 * Answers a teammate is waiting for (a permission response, a plan verdict),
 * keyed by request id. Mail delivery resolves them; a timeout or an abort
 * settles them too, so a waiting teammate never hangs forever.
 */
export interface Verdict {
  approve: boolean;
  reason: string;
  by: string;
  updatedInput?: unknown;
}

export class Waiters {
  private readonly pending = new Map<string, (v: Verdict) => void>();

  wait(requestId: string, timeoutMs: number, signal?: AbortSignal): Promise<Verdict | 'timeout' | 'aborted'> {
    return new Promise((resolve) => {
      const finish = (v: Verdict | 'timeout' | 'aborted') => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.pending.delete(requestId);
        resolve(v);
      };
      const onAbort = () => finish('aborted');
      const timer = setTimeout(() => finish('timeout'), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(requestId, finish);
      if (signal?.aborted) finish('aborted');
    });
  }

  /** True when someone was waiting for this request. */
  settle(requestId: string, verdict: Verdict): boolean {
    const resolve = this.pending.get(requestId);
    if (!resolve) return false;
    resolve(verdict);
    return true;
  }

  get size(): number {
    return this.pending.size;
  }
}
