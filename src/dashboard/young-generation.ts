/**
 * `teamd top` runs for days and allocates a little on every refresh (a
 * render, a few parsed lines). V8 doubles its young generation each time a
 * scavenge finds much of it alive, up to 2 × 16 MB semi-spaces, and gives the
 * pages back only when allocation goes quiet, which a refreshing dashboard
 * never does: that young generation was most of top's RSS (docs/DECISIONS.md,
 * "teamd top's memory"). `--max-semi-space-size` only works at launch, but
 * the growth factor is read each time the space would grow, so setting it to
 * 1 at run time keeps the young generation at its starting size.
 *
 * The old generation likewise: after a full collection V8 lets it grow to up
 * to 4 × what was alive before the next one (less when collections are
 * costly), and with a young generation this small most of a first read's
 * short-lived objects are promoted into it. Its growth factor too is read each
 * time the limit is set, so a fixed 1.2 bounds it (20,000 sessions read: the
 * reader's largest RSS 124 → 92 MB; docs/DECISIONS.md, "`teamd top`'s first
 * read and idle refresh").
 */
import { setFlagsFromString } from 'node:v8';

export const NO_YOUNG_GROWTH_FLAG = '--semi-space-growth-factor=1';
export const OLD_GROWTH_FLAG = '--heap-growing-percent=20';

/** From now on the young generation stays the size it is and the old one grows by a fifth past what is alive (call before the dashboard's first render). */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString(NO_YOUNG_GROWTH_FLAG);
  setFlagsFromString(OLD_GROWTH_FLAG);
}
