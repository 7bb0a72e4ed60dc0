/**
 * `teamd top` runs for days and allocates a little on every refresh (a
 * render, a few parsed lines). V8 doubles its young generation each time a
 * scavenge finds much of it alive, up to 2 × 16 MB semi-spaces, and gives the
 * pages back only when allocation goes quiet, which a refreshing dashboard
 * never does: that young generation was most of top's RSS (docs/DECISIONS.md,
 * "teamd top's memory"). `--max-semi-space-size` only works at launch, but
 * the growth factor is read each time the space would grow, so setting it to
 * 1 at run time keeps the young generation at its starting size.
 */
import { setFlagsFromString } from 'node:v8';

export const NO_YOUNG_GROWTH_FLAG = '--semi-space-growth-factor=1';

/** From now on the young generation stays the size it is (call before the dashboard's first render). */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString(NO_YOUNG_GROWTH_FLAG);
}
