/**
 * `teamd top` over hostile files: a task subject (in review), an approval's
 * summary, the latest mail and a transcript line hold escape sequences, C1
 * and bidi controls (generated: test/observe/support/hostile-text.ts). Every
 * frame shows them escaped, never raw, and an approval with a second line
 * says so.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { render, type Instance } from 'ink';
import { expect, it } from 'vitest';
import { teamActions } from '../../src/dashboard/actions.js';
import { App } from '../../src/dashboard/components/App.js';
import { createTeamSource } from '../../src/dashboard/source.js';
import { terminalSafeLine } from '../../src/observe/terminal-safe.js';
import { firstUnsafe, hostileText } from '../observe/support/hostile-text.js';
import { FakeStdin, FakeStdout, waitFor } from './support/fake-terminal.js';
import { buildTeam, type TeamFixture } from './support/team-fixture.js';
import { line, usage, writeSession } from './support/transcripts.js';

const SEED = Date.now();
const [tail] = fc.sample(hostileText(), { numRuns: 1, seed: SEED });
/** Each planted text: a fixed OSC 52 or 8-bit CSI right after its marker (checked escaped), then generated ones. */
const SUBJECT = `Msubj\x1b]52;c;cm0K\x07 ${tail!}`.slice(0, 400);
const SUMMARY = `Mappr\u009b2J\u202e npm test\nrm -rf ~ ${tail!}`;
const MAIL = `Mmail\x1b]0;owned\x07 ${tail!}`;
const SAID = `Msaid\x1b[1A\x1b[2K ${tail!}`;

const editJson = (file: string, change: (v: Record<string, unknown>) => Record<string, unknown>): void =>
  writeFileSync(file, JSON.stringify(change(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)));

/** The approval team with hostile text in a task in review, a request, the lead's inbox and worker-1's session. */
function plantHostile(t: TeamFixture): void {
  editJson(join(t.root, '.tasks', 'parser.json'), (task) => ({
    ...task,
    subject: SUBJECT,
    metadata: { merge: { state: 'review', review: { mode: 'human', requestedAt: '2026-11-29T09:59:00.000Z' } } },
  }));
  editJson(join(t.root, '.team', 'state', 'requests', 'perm-1.json'), (r) => ({ ...r, summary: SUMMARY }));
  rmSync(join(t.root, '.team', 'state', 'requests', 'plan-2.json')); // room in the panel for the review line
  const inbox = join(t.root, '.mailboxes', 'lead.json');
  const mail = JSON.parse(readFileSync(inbox, 'utf8')) as Record<string, unknown>[];
  writeFileSync(inbox, JSON.stringify(mail.map((m) => ({ ...m, content: MAIL }))));
  const s = { agent: 'worker-1', session: 's9-hostile', parent: 'parser', mtime: t.now - 1000 };
  writeSession(t.root, s, [line.header(s), line.init(s), line.text(s, SAID, usage(10, 10))]);
}

/** A frame with ink's own styling (SGR) taken out: what is left must hold no control. */
const expectFramesSafe = (stdout: FakeStdout): void => {
  for (const frame of stdout.frames)
    expect(firstUnsafe(frame.replace(/\x1b\[[\d;]*m/g, '')), `seed ${SEED}`).toBeNull();
};

it('hostile subjects, approvals, mail and transcript lines are drawn escaped; a hidden approval line is marked', async () => {
  const t = buildTeam('approval');
  let app: Instance | undefined;
  try {
    plantHostile(t);
    const stdout = new FakeStdout(200, 40);
    const stdin = new FakeStdin();
    const source = createTeamSource(t.root, t.config, { now: () => t.now, refreshMs: 60_000 });
    app = render(<App source={source} actions={teamActions(t.root, t.config, { color: false })} noColor />, {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      debug: true,
      patchConsole: false,
      exitOnCtrlC: false,
    });
    await waitFor(() => stdout.screen.includes('Mmail'), 'the first frame with the hostile mail');
    expectFramesSafe(stdout);
    const screen = stdout.screen;
    expect(screen).toContain(terminalSafeLine('Msubj\x1b]52;c;cm0K\x07'));
    expect(screen).toContain(terminalSafeLine('Mappr\u009b2J\u202e npm test'));
    expect(screen).toMatch(/\(\+\d+ lines?\)/);
    expect(screen).toContain(terminalSafeLine('Mmail\x1b]0;owned\x07'));
    stdin.type('\r'); // follow worker-1's transcript
    await waitFor(() => stdout.screen.includes('Msaid'), "worker-1's transcript");
    expect(stdout.screen).toContain(terminalSafeLine('Msaid\x1b[1A\x1b[2K'));
    expectFramesSafe(stdout);
  } finally {
    app?.unmount();
    await t.close();
  }
}, 60_000);
