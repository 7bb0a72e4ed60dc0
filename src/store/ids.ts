import { randomBytes } from 'node:crypto';

// Fixed width so ids sort as strings in creation order (base36 of ms fits 9 chars until year 5188).
const TIME_WIDTH = 9;
let lastMs = 0;

/** Milliseconds that never go backwards within this process, so ids made in one ms still sort. */
function monotonicMs(): number {
  const now = Date.now();
  lastMs = now > lastMs ? now : lastMs + 1;
  return lastMs;
}

/**
 * A new time-sortable id, e.g. `t-0mik3b2x1-9f3a1c`: prefix, creation time in
 * base36, and random hex so ids made by different processes never collide.
 * Always matches ID_PATTERN.
 */
export function newId(prefix: string): string {
  const time = monotonicMs().toString(36).padStart(TIME_WIDTH, '0');
  return `${prefix}-${time}-${randomBytes(4).toString('hex')}`;
}
