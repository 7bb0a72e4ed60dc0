/**
 * A full GC in every worker thread of this process, from the main thread,
 * for the soak probe's readings (issue 24 item 4): the lead's RSS counts the
 * heaps of its teammates' threads too, and a GC of the main thread alone
 * leaves their slack of the moment in the reading. Through the in-process
 * inspector (`NodeWorker` domain), every worker is reached without a hook in
 * the teammate: `HeapProfiler.collectGarbage` (all available garbage, as V8's
 * low-memory notification: the young generation's pages go back too) and
 * then `Runtime.getHeapUsage` there; the main thread gets the same GC.
 *
 * Not `worker.getHeapSnapshot()`: it is a full GC too, but building a
 * snapshot left the process 600–750 MB larger (4 workers of 10 MB heap:
 * 165 → 760–919 MB RSS, and rising), so the reading after it measured the
 * snapshot, not the team (docs/DECISIONS.md, "The soak's GC'd readings").
 */
import { Session } from 'node:inspector';

export interface IsolateHeap {
  /** The worker's thread id (`worker.threadId`). */
  threadId: number;
  /** Its live heap right after the GC, and the heap V8 holds for it (used + free of its spaces). */
  usedMB: number;
  totalMB: number;
}

interface Attached {
  sessionId: string;
  /** `title` is `[worker <threadId>]` (and the worker's name); `workerId` is the inspector's own count. */
  workerInfo: { workerId: string; title: string };
}
interface Reply {
  id?: number;
  result?: unknown;
  error?: { message: string };
}

const threadIdOf = (info: Attached['workerInfo']): number =>
  Number(/^\[worker (\d+)\]/.exec(info.title)?.[1] ?? NaN);

export class WorkerIsolates {
  private readonly session = new Session();
  private readonly workers = new Map<string, number>();
  private readonly pending = new Map<number, { sessionId: string; answer: (r: Reply) => void }>();
  private nextId = 0;

  /** Attaches to every worker thread now and to those started later (a restarted teammate). */
  static async attach(): Promise<WorkerIsolates> {
    const isolates = new WorkerIsolates();
    await isolates.enable();
    return isolates;
  }

  private async enable(): Promise<void> {
    this.session.connect();
    this.session.on('NodeWorker.attachedToWorker', ({ params }: { params: Attached }) =>
      this.workers.set(params.sessionId, threadIdOf(params.workerInfo)),
    );
    this.session.on('NodeWorker.detachedFromWorker', ({ params }: { params: { sessionId: string } }) =>
      this.detached(params.sessionId),
    );
    this.session.on('NodeWorker.receivedMessageFromWorker', ({ params }: { params: { message: string } }) =>
      this.settle(JSON.parse(params.message) as Reply),
    );
    await this.post('NodeWorker.enable', { waitForDebuggerOnStart: false });
  }

  /** A full GC in every attached worker, one after another, and each one's heap after it. */
  async collect(): Promise<IsolateHeap[]> {
    const heaps: IsolateHeap[] = [];
    for (const [sessionId, threadId] of [...this.workers]) {
      const usage = await this.call(sessionId, 'HeapProfiler.collectGarbage')
        .then(() => this.call(sessionId, 'Runtime.getHeapUsage') as Promise<{ usedSize: number; totalSize: number }>)
        .catch(() => null); // it exited meanwhile (a restart): nothing of it to read
      if (usage) heaps.push({ threadId, usedMB: usage.usedSize / 2 ** 20, totalMB: usage.totalSize / 2 ** 20 });
    }
    return heaps;
  }

  /**
   * The same GC in the main thread, through this session. Stronger than `gc()`: it also gives back the young
   * generation's pages (a main thread at 32 MB of semi-spaces after work read 1 MB after it; `gc()` leaves 32).
   */
  async collectMain(): Promise<void> {
    await this.post('HeapProfiler.collectGarbage', {});
  }

  close(): void {
    this.session.disconnect();
  }

  private call(sessionId: string, method: string): Promise<unknown> {
    const id = ++this.nextId;
    // A worker that exits mid-call never answers: a reading must not wait for it forever.
    const answered = new Promise<Reply>((resolve) => {
      const timer = setTimeout(() => resolve({ id, error: { message: 'no answer in 60 s' } }), 60_000);
      this.pending.set(id, { sessionId, answer: (r) => (clearTimeout(timer), resolve(r)) });
    });
    this.post('NodeWorker.sendMessageToWorker', { sessionId, message: JSON.stringify({ id, method }) }).catch(
      (error: Error) => this.settle({ id, error }), // its session is gone
    );
    return answered.then((r) => {
      if (r.error) throw new Error(`${method} in worker ${this.workers.get(sessionId)}: ${r.error.message}`);
      return r.result;
    });
  }

  private settle(reply: Reply): void {
    if (reply.id === undefined) return; // an event of the worker's session, not an answer
    this.pending.get(reply.id)?.answer(reply);
    this.pending.delete(reply.id);
  }

  /** A worker gone: forgotten, and what was asked of it answered with an error. */
  private detached(sessionId: string): void {
    this.workers.delete(sessionId);
    for (const [id, p] of this.pending) if (p.sessionId === sessionId) this.settle({ id, error: { message: 'exited' } });
  }

  private post(method: string, params: object): Promise<unknown> {
    return new Promise((resolve, reject) =>
      this.session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  }
}
