import type { LockOptions } from '../../../src/store/lock.js';

/** The lock options of a race worker: RACE_STALE_MS shortens the staleness (the stop races stall workers past it). */
export const raceLockOptions = (): LockOptions | undefined =>
  process.env.RACE_STALE_MS ? { staleMs: Number(process.env.RACE_STALE_MS) } : undefined;
