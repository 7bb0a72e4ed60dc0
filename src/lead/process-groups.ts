/**
 * The process groups the teammates' commands started, kept in
 * `.team/state/process-groups.json` so that a lead killed outright (SIGKILL,
 * a crash, a power cut) does not leave them running for ever: the next lead
 * ends them at start. A group is ended only if its leader is the very process
 * recorded (same pid and same start time), so a pid reused by an unrelated
 * process since is never touched.
 */
import { readStateSync, stateOr } from '../store/state-file.js';
import { join } from 'node:path';
import { z } from 'zod';
import { processStart } from '../store/process-identity.js';
import { writeFileAtomic } from '../store/atomic.js';
import { killProcessGroup } from '../tools/process-group.js';

const RecordSchema = z.object({
  groups: z.array(
    z.object({ pgid: z.number().int().positive(), teammate: z.string(), startTime: z.string() }),
  ),
});
type GroupRecord = z.infer<typeof RecordSchema>['groups'][number];

export const processGroupsFile = (repoRoot: string): string =>
  join(repoRoot, '.team', 'state', 'process-groups.json');

/** The start time of a process (field 22 of /proc/<pid>/stat, clock ticks since boot); null when gone or not Linux. */
export const processStartTime = processStart;

export class ProcessGroups {
  private readonly byTeammate = new Map<string, GroupRecord[]>();
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly repoRoot: string) {}

  /** Ends the groups a previous lead recorded that are still running; returns how many. */
  async endLeftovers(): Promise<number> {
    const recorded = readRecord(this.repoRoot);
    const alive = recorded.filter((g) => processStartTime(g.pgid) === g.startTime);
    await Promise.all(alive.map((g) => killProcessGroup(g.pgid, 500)));
    await this.save();
    return alive.length;
  }

  /** A worker's current list (`pgids`); a dead worker's groups are ended by the pool, then cleared here. */
  set(teammate: string, pgids: number[]): void {
    const known = new Map((this.byTeammate.get(teammate) ?? []).map((g) => [g.pgid, g]));
    const groups = pgids.flatMap((pgid) => {
      const startTime = known.get(pgid)?.startTime ?? processStartTime(pgid);
      return startTime === null ? [] : [{ pgid, teammate, startTime }];
    });
    this.byTeammate.set(teammate, groups);
    void this.save();
  }

  /** Writes are queued so the file always ends with the latest list (soft state: not fsynced). */
  private save(): Promise<void> {
    const groups = [...this.byTeammate.values()].flat();
    this.writing = this.writing
      .then(() =>
        writeFileAtomic(processGroupsFile(this.repoRoot), JSON.stringify({ groups }, null, 2), {
          durable: false,
        }),
      )
      .then(
        () => undefined,
        () => undefined, // a lost update only means a leftover is not ended at the next start
      );
    return this.writing;
  }
}

function readRecord(repoRoot: string): GroupRecord[] {
  return stateOr(readStateSync(processGroupsFile(repoRoot), RecordSchema), { groups: [] }).groups;
}
