import { tasksOnDisk } from '../../faults/support/files.js';
import { startLead, until, type teamPerTest, type TeamRepo } from './harness.js';

/** Task t1 owned by `first`, t2 by `second`; the lead runs until both are completed (the event log in the error when not). */
export async function runTwoTasks(
  team: ReturnType<typeof teamPerTest>,
  r: TeamRepo,
  [first, second]: [string, string],
): Promise<void> {
  r.writeTask('t1', { subject: 'make t1', owner: first });
  r.writeTask('t2', { subject: 'make t2', owner: second });
  const { lead, events } = await startLead(r);
  team.lead(lead);
  const done = () => ['t1', 't2'].every((id) => tasksOnDisk(r.dir).get(id)?.status === 'completed');
  await until(lead, done, 60_000, 'both tasks completed').catch((err: Error) => {
    throw new Error(`${err.message}\n${events.map((e) => JSON.stringify(e)).join('\n')}`);
  });
}
