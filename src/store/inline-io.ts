import { isMainThread } from 'node:worker_threads';

/**
 * Whether a store write runs its file operations inline (synchronously).
 * Each is one small syscall, and a round trip through libuv's thread pool (a
 * queue, a futex wake, an eventfd write) costs more than the syscall itself.
 * Only the main thread's fsyncs go to the pool: they can take milliseconds,
 * and the lead's event loop serves the whole team. A worker thread blocks
 * only itself.
 */
export const runsInline = (durable: boolean): boolean => !isMainThread || !durable;
