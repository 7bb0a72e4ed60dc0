/**
 * `teamd top` in a real pseudo-terminal (tmux, 80×24): the keys a person
 * uses — select and approve, follow a transcript as it grows, go back, quit —
 * and colours that appear on a terminal and disappear with NO_COLOR.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { loadRequest } from '../../src/teammate/requests.js';
import { TSX_LOADER } from '../support/race/spawn-ts.js';
import { waitFor } from './support/fake-terminal.js';
import { buildTeam, type TeamFixture } from './support/team-fixture.js';
import { Tmux, tmuxInstalled } from './support/tmux.js';
import { line, writeSession } from './support/transcripts.js';

const ENTRY = fileURLToPath(new URL('./support/top-entry.ts', import.meta.url));
/** Any SGR colour: 30–37, 90–97, 38;5;n, 38;2;r;g;b. */
const COLOUR = /\x1b\[(?:[0-9;]*;)?(?:3[0-7]|9[0-7]|38;[25])[;m]/;

let tmux: Tmux | null = null;
let team: TeamFixture | null = null;
afterEach(async () => {
  tmux?.close();
  tmux = null;
  await team?.close();
  team = null;
});

/** The shell line running `teamd top` and recording its exit code. */
const topCommand = (root: string, exitFile: string): string =>
  `'${process.execPath}' --import '${TSX_LOADER}' '${ENTRY}' top --dir '${root}' --refresh 500; echo $? > '${exitFile}'`;

describe('teamd top in a real terminal', () => {
  it('tmux is installed (apt-get install -y tmux)', () => {
    expect(tmuxInstalled()).toBe(true);
  });

  it('approves with tab, j, a; follows a transcript live; escape; q quits with 0', async () => {
    team = buildTeam('approval', Date.now());
    tmux = new Tmux();
    const exitFile = join(team.root, 'top-exit');
    tmux.start('top', topCommand(team.root, exitFile));
    await tmux.waitForScreen('top', 'Approvals (2)');
    expect(tmux.screen('top', true)).toMatch(COLOUR);

    // One key at a time: keys arriving together read as pasted text.
    tmux.keys('top', 'Tab');
    await tmux.waitForScreen('top', '› worker-1 bash: rm -rf build');
    tmux.keys('top', 'j');
    await tmux.waitForScreen('top', '› worker-2 Plan: one page');
    tmux.keys('top', 'a');
    await tmux.waitForScreen('top', '✔ approved plan-2 (worker-2)');
    expect(loadRequest(team.root, 'plan-2')?.status).toBe('approved');
    expect((await new MailboxStore(team.root).peek('worker-2')).at(-1)?.metadata).toMatchObject({
      request_id: 'plan-2',
      approve: true,
    });
    await tmux.waitForScreen('top', 'Approvals (1)');

    tmux.keys('top', 'Tab');
    await tmux.waitForScreen('top', 'enter follow transcript');
    tmux.keys('top', 'Enter');
    await tmux.waitForScreen('top', 'worker-1 · session s2-parse · task parser');
    const parser = { agent: 'worker-1', session: 's2-parser', parent: 'parser' };
    writeSession(
      team.root,
      parser,
      [
        line.text(parser, 'Loop bound fixed; rerunning the tests.', {
          input_tokens: 10,
          output_tokens: 5,
          cache_read_input_tokens: 0,
          cache_creation_input_tokens: 0,
        }),
      ],
      true,
    );
    await tmux.waitForScreen('top', 'Loop bound fixed; rerunning the tests.');

    tmux.keys('top', 'Escape');
    await tmux.waitForScreen('top', 'Tasks');
    tmux.keys('top', 'q');
    await waitFor(() => existsSync(exitFile) && readFileSync(exitFile, 'utf8').trim() !== '', 'top to exit');
    expect(readFileSync(exitFile, 'utf8').trim()).toBe('0');
  });

  it('draws without colour under NO_COLOR, still marking states in words', async () => {
    team = buildTeam('stalled', Date.now());
    tmux = new Tmux();
    tmux.start('plain', topCommand(team.root, join(team.root, 'exit')), { env: { NO_COLOR: '1' } });
    const screen = await tmux.waitForScreen('plain', 'Tasks');
    expect(screen).toMatch(/worker-2 +stalled/);
    expect(tmux.screen('plain', true)).not.toMatch(COLOUR);
    tmux.keys('plain', 'q');
  });
});
