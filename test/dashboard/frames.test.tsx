/**
 * The dashboard drawn into an 80×24 fake terminal from recorded team states,
 * with a fixed clock so ages do not move. One frame per state is a snapshot;
 * keys typed into a fake stdin answer approvals and open a transcript.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { render, type Instance } from 'ink';
import { afterEach, describe, expect, it } from 'vitest';
import { teamActions } from '../../src/dashboard/actions.js';
import { App } from '../../src/dashboard/components/App.js';
import { runTop } from '../../src/dashboard/run-top.js';
import { createTeamSource } from '../../src/dashboard/source.js';
import type { LoggedEvent } from '../../src/observe/types.js';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { loadRequest } from '../../src/teammate/requests.js';
import { FakeStdin, FakeStdout, waitFor } from './support/fake-terminal.js';
import { buildTeam, type TeamFixture, type TeamKind } from './support/team-fixture.js';

let team: TeamFixture | null = null;
let app: Instance | null = null;
afterEach(async () => {
  app?.unmount();
  app = null;
  await team?.close();
  team = null;
});

function show(kind: TeamKind, onFresh?: (e: LoggedEvent[]) => void) {
  team = buildTeam(kind);
  const stdout = new FakeStdout(80, 24);
  const stdin = new FakeStdin();
  const source = createTeamSource(team.root, team.config, { now: () => team!.now, refreshMs: 60_000 });
  const actions = teamActions(team.root, team.config, { color: false });
  app = render(<App source={source} actions={actions} noColor onFresh={onFresh} />, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    patchConsole: false,
    exitOnCtrlC: false,
  });
  return { stdout, stdin, team };
}

/** The frame with the stand-in lead's pid masked (it differs per run). */
const frame = (stdout: FakeStdout): string =>
  stdout.screen.replace(/^(teamd top · lead pid) \d+/, '$1 <lead>');

const loaded = (stdout: FakeStdout) =>
  waitFor(() => stdout.screen.includes('Tasks'), 'the first frame with the team');

describe('teamd top frames (80×24)', () => {
  it('a working team', async () => {
    const { stdout } = show('working');
    await loaded(stdout);
    const screen = frame(stdout);
    expect(screen.split('\n').length).toBeLessThanOrEqual(23);
    expect(Math.max(...screen.split('\n').map((l) => l.length))).toBeLessThanOrEqual(80);
    expect(screen).toContain('worker-1   working  parser');
    expect(screen).toContain('L2  ○ lexer-tests  blocked by parser (running)');
    expect(screen).toMatchSnapshot();
  });

  it('a stalled team: no heartbeat, and working without progress', async () => {
    const { stdout } = show('stalled');
    await loaded(stdout);
    const screen = frame(stdout);
    expect(screen).toMatch(/worker-1 +stalled +parser \(no progress\)/);
    expect(screen).toMatch(/worker-2 +stalled +docs +5m/);
    expect(screen).toMatchSnapshot();
  });

  it('a team waiting for approvals', async () => {
    const { stdout } = show('approval');
    await loaded(stdout);
    const screen = frame(stdout);
    expect(screen).toContain('2 approvals!');
    expect(screen).toMatch(/worker-1 +waiting +parser \(approval\)/);
    expect(screen).toMatchSnapshot();
  });

  it('a finished team', async () => {
    const { stdout } = show('finished');
    await loaded(stdout);
    const screen = frame(stdout);
    expect(screen).toContain('team finished');
    expect(screen).toContain('✘ release');
    expect(screen).toMatchSnapshot();
  });
});

describe('teamd top keys (fake stdin)', () => {
  it('tab to the approvals, down, a: the second request is approved and its teammate told', async () => {
    const { stdout, stdin, team } = show('approval');
    await loaded(stdout);
    stdin.type('\t');
    await waitFor(() => stdout.screen.includes('› worker-1 bash'), 'the first approval selected');
    stdin.type('j');
    await waitFor(() => stdout.screen.includes('› worker-2 Plan: one page'), 'the second approval selected');
    stdin.type('a');
    await waitFor(() => stdout.screen.includes('✔ approved plan-2 (worker-2)'), 'the answer shown');
    expect(loadRequest(team.root, 'plan-2')).toMatchObject({ status: 'approved', answer: { by: 'user' } });
    expect(loadRequest(team.root, 'perm-1')?.status).toBe('pending');
    const inbox = await new MailboxStore(team.root).peek('worker-2');
    expect(inbox.at(-1)).toMatchObject({
      from: 'user',
      type: 'plan_approval_response',
      metadata: { request_id: 'plan-2', approve: true },
    });
    const events = readFileSync(join(team.root, '.team', 'state', 'events.jsonl'), 'utf8');
    expect(events).toContain('"type":"approval_answered","requestId":"plan-2"');
  });

  it('r rejects; enter follows a transcript and escape comes back', async () => {
    const { stdout, stdin, team } = show('approval');
    await loaded(stdout);
    stdin.type('\t');
    await waitFor(() => stdout.screen.includes('› worker-1 bash'), 'the first approval selected');
    stdin.type('r');
    await waitFor(() => stdout.screen.includes('✘ rejected perm-1 (worker-1)'), 'the rejection shown');
    expect(loadRequest(team.root, 'perm-1')?.status).toBe('rejected');
    stdin.type('\t');
    await waitFor(() => stdout.screen.includes('› worker-1 '), 'worker-1 selected');
    stdin.type('\r');
    await waitFor(
      () => stdout.screen.includes('worker-1 · session s2-parse · task parser'),
      'the transcript view',
    );
    expect(stdout.screen).toContain('✘ bash failed: FAIL test/parser.test.ts');
    stdin.type('\x1b');
    await waitFor(() => stdout.screen.includes('Tasks'), 'the dashboard again');
  });

  it('runTop rings the bell for needs-you events that arrive while it runs, never for history or routine ones; q quits', async () => {
    team = buildTeam('finished', Date.now()); // its history holds a failed task and the team's end
    const stdout = new FakeStdout(80, 24);
    const stdin = new FakeStdin();
    const running = runTop({
      repoRoot: team.root,
      config: team.config,
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      noColor: true,
      altScreen: false,
    });
    const written = () => stdout.frames.join('');
    await waitFor(() => written().includes('Tasks'), 'the first frame');
    const log = join(team.root, '.team', 'state', 'events.jsonl');
    const event = (e: object) =>
      appendFileSync(log, JSON.stringify({ ts: new Date().toISOString(), ...e }) + '\n');
    event({ type: 'task_claimed', task: 'docs', agent: 'worker-2', attempt: 2 });
    await waitFor(() => written().includes('worker-2 claimed docs (attempt 2)'), 'the routine event drawn');
    expect(written()).not.toContain('\x07');
    event({
      type: 'approval_requested',
      requestId: 'perm-9',
      agent: 'worker-1',
      kind: 'permission',
      summary: 'bash: git push',
    });
    await waitFor(() => written().includes('\x07'), 'the bell');
    expect(written().split('\x07')).toHaveLength(2);
    stdin.type('q');
    await running;
  });
});
