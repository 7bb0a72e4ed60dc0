/**
 * `teamd logs`: its action called in this process on a recorded team, and
 * `-f` as a real process that follows files as they grow until SIGINT.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { logs, type LogsOptions } from '../../src/cli/logs.js';
import { spawnTs } from '../support/race/spawn-ts.js';
import { buildTeam, type TeamFixture } from '../dashboard/support/team-fixture.js';
import { line, usage, writeSession } from '../dashboard/support/transcripts.js';
import { captureStdout } from './support/capture-stdout.js';

const ENTRY = fileURLToPath(new URL('./support/logs-entry.ts', import.meta.url));
const teamd = (agent: string | undefined, options: Omit<LogsOptions, 'dir'> = {}) =>
  captureStdout(() => logs(agent, { ...options, dir: team.root }));

let team: TeamFixture;
beforeEach(() => {
  team = buildTeam('working');
});
afterEach(() => team.close());

describe('teamd logs <agent>', () => {
  it('renders every session of the agent, or only those of --task, or raw --json', async () => {
    const all = await teamd('worker-1');
    expect(all.error).toBeNull();
    expect(all.stdout).toContain('── session s1-design');
    expect(all.stdout).toContain('● write src/ast.ts (2 lines)');
    expect(all.stdout).toContain(
      '✔ success after 2 turns: 1.5k in (cache read 4.0k, write 4.0k), 500 out, $0.0184, 1.5 s',
    );
    expect(all.stdout).toContain('  ✘ bash failed: FAIL test/parser.test.ts');
    expect(all.stdout).toContain('  · turn 2: 2.5k in (cache read 4.0k, write 0), 400 out, $0.0094');

    const one = await teamd('worker-1', { task: 'parser' });
    expect(one.stdout).toContain('── session s2-parser');
    expect(one.stdout).not.toContain('s1-design');

    const json = await teamd('worker-1', { task: 'design-ast', json: true });
    const types = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).type);
    expect(types).toEqual(['header', 'system', 'user', 'assistant', 'user', 'assistant', 'result']);
  });

  it('one-line errors for an unknown agent, a bad name, or no agent at all', async () => {
    expect((await teamd('nobody')).error).toMatch(/^no transcripts for "nobody" in /);
    expect((await teamd('../x')).error).toBe('invalid agent name "../x"');
    expect((await teamd(undefined)).error).toBe(
      'name an agent (a teammate or lead), or use --daemon or --events',
    );
  });

  it('--events prints the team events with their times', async () => {
    const events = await teamd(undefined, { events: true });
    expect(events.stdout.split('\n')[1]).toMatch(
      /^2026-11-29 09:41:00\.000Z {2}worker-1 claimed design-ast$/,
    );
  });

  it('-f follows: lines appended later are printed, including a new session; SIGINT ends it', async () => {
    const follow = spawnTs(ENTRY, ['logs', 'worker-1', '-f', '--dir', team.root]);
    try {
      await follow.waitForLine((l) => l.includes('The parser drops the last node'));
      const parser = { agent: 'worker-1', session: 's2-parser', parent: 'parser' };
      writeSession(team.root, parser, [line.text(parser, 'Fixed; all green.', usage(10, 10))], true);
      await follow.waitForLine((l) => l === 'Fixed; all green.');
      const next = { agent: 'worker-1', session: 's4-next', parent: 'lexer-tests' };
      writeSession(team.root, next, [line.header(next), line.init(next)]);
      await follow.waitForLine((l) => l.startsWith('· run started for task lexer-tests'));
      follow.child.kill('SIGINT');
      expect((await follow.exited).code).toBe(0);
    } finally {
      follow.child.kill('SIGKILL');
    }
  });
});
