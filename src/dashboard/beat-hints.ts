/**
 * An idle team's lead rewrites each teammate's status file every few seconds
 * only to move its heartbeat, and each write woke `teamd top` for a whole
 * refresh besides its interval's (issue 24: with 4 teammates, nearly twice
 * the refreshes). A watch hint for a status file whose only change is its
 * heartbeat is dropped: the BEAT column catches up at the next interval
 * refresh. Any other change (state, task, turns, tokens) still refreshes at
 * once, and so does a file that cannot be read or is seen the first time.
 */
import { join } from 'node:path';
import { STATE_LIMITS } from '../store/state-file.js';
import { readTeamFileSync } from '../store/team-file.js';

const HEARTBEAT = /"heartbeat"\s*:\s*"[^"]*"/;

export class BeatHints {
  /** Per status file, its text without the heartbeat as last seen. */
  private readonly seen = new Map<string, string>();

  constructor(private readonly agentsDir: string) {}

  /** Whether a change to `name` in `dir` needs a refresh now. */
  matters(dir: string, name: string | null): boolean {
    if (dir !== this.agentsDir || name === null) return true;
    // An atomic write's temp file: its rename into place brings its own hint.
    if (name.startsWith('.')) return false;
    // The status reader's own limits: a FIFO, a link or a huge file is refused unread (it would hold top's thread).
    const read = readTeamFileSync(join(dir, name), `.team/state/agents/${name}`, STATE_LIMITS.small);
    if (read.kind !== 'text') {
      this.seen.delete(name);
      return true;
    }
    const rest = read.text.replace(HEARTBEAT, '');
    const same = this.seen.get(name) === rest;
    this.seen.set(name, rest);
    return !same;
  }
}
