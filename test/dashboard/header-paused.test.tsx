/**
 * `teamd top` says when the team is paused (a refused key, an outage, a spent
 * budget): the header shows it, read from `.team/state/paused.json`.
 */
import { render, type Instance } from 'ink';
import { afterEach, expect, it } from 'vitest';
import { teamActions } from '../../src/dashboard/actions.js';
import { App } from '../../src/dashboard/components/App.js';
import { createTeamSource } from '../../src/dashboard/source.js';
import { writePause } from '../../src/lead/pause-file.js';
import { FakeStdin, FakeStdout, waitFor } from './support/fake-terminal.js';
import { buildTeam, type TeamFixture } from './support/team-fixture.js';

let team: TeamFixture | null = null;
let app: Instance | null = null;
afterEach(async () => {
  app?.unmount();
  await team?.close();
});

it('the header shows a pause and why', async () => {
  team = buildTeam('working');
  await writePause(team.root, {
    kind: 'budget',
    reason: 'the team spent $5.0000 of its $5.00 budget',
    since: '2026-11-29T09:59:00.000Z',
  });
  const stdout = new FakeStdout(120, 24);
  const t = team;
  const source = createTeamSource(t.root, t.config, { now: () => t.now, refreshMs: 60_000 });
  app = render(<App source={source} actions={teamActions(t.root, t.config, { color: false })} noColor />, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
    debug: true,
    patchConsole: false,
    exitOnCtrlC: false,
  });
  await waitFor(() => stdout.screen.includes('Tasks'), 'the first frame with the team');
  expect(stdout.screen.split('\n')[0]).toMatch(/lead pid \d+ · PAUSED \(budget\): the team spent \$5\.0000/);
});
