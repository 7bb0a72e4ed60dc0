/**
 * No hang: every stream of the team API ends when the team stops — a
 * runner's `run()` and `team.events()`, whether they were being read,
 * created but not yet read, or created after the close.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { Team } from '../../src/team-api/index.js';
import { genericTaskScript, makeTeamRepo, type TeamRepo } from '../e2e/support/harness.js';

let repo: TeamRepo | undefined;
afterEach(() => {
  repo?.cleanup();
  repo = undefined;
});

async function openTeam(): Promise<Team> {
  repo = makeTeamRepo({ script: genericTaskScript(), config: { teammates: [], worktrees: { mode: 'off' } } });
  return Team.open(repo.dir, { idleRecheckMs: 60_000 });
}

/** `promise`, or a failure after `ms` saying what hung. */
async function within<T>(promise: Promise<T>, what: string, ms = 20_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** Reads a stream to its end, or fails after `ms` saying what hung. */
async function drained<T>(stream: AsyncGenerator<T>, what: string, ms = 20_000): Promise<T[]> {
  const seen: T[] = [];
  const read = async () => {
    for await (const e of stream) seen.push(e);
    return seen;
  };
  return within(read(), what, ms);
}

describe('the team API streams end when the team stops', () => {
  test('a run being read and events() being read both end on close', async () => {
    const team = await openTeam();
    const events = team.events();
    const run = team.createTeammate({ name: 'ann' }).run('first note for ann');
    const first = await run.next(); // it started
    expect(first.done).toBe(false);
    const [runRest, all] = await Promise.all([drained(run, 'run()'), drained(events, 'events()'), team.close()]);
    expect(all.at(-1)).toMatchObject({ type: 'daemon_stopped' });
    expect(Array.isArray(runRest)).toBe(true);
  });

  test('a run started but never read before the close ends when read after it', async () => {
    const team = await openTeam();
    const run = team.createTeammate({ name: 'bob' }).run();
    const events = team.events();
    for await (const e of events) if (e.type === 'teammate_state' && e.agent === 'bob' && e.state === 'idle') break;
    // Right after it went idle (it may still be telling the lead so): the stop must not wait for its idle re-check.
    await within(team.close(), 'close() of an idle teammate', 10_000);
    await drained(run, 'run() read after close');
  });

  test('events() asked for after the close ends at once', async () => {
    const team = await openTeam();
    await team.close();
    expect(await drained(team.events(), 'events() after close')).toEqual([]);
  });

  test('a run() called after the close ends (with an error or nothing), never hangs', async () => {
    const team = await openTeam();
    const runner = team.createTeammate({ name: 'cat' });
    await team.close();
    const outcome = await drained(runner.run('too late'), 'run() after close').then(
      (events) => ({ events }),
      (err: unknown) => ({ error: String(err) }),
    );
    expect(outcome).not.toHaveProperty('error', expect.stringMatching(/did not end/));
  });
});
