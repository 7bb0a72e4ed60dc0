import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/store/ids.js';
import { fileFor, teamPaths } from '../../src/store/paths.js';
import { ID_PATTERN } from '../../src/store/types.js';

describe('teamPaths', () => {
  it('puts every folder under the repository root', () => {
    const p = teamPaths('/repo/x/..');
    expect(p).toEqual({
      root: '/repo',
      tasks: '/repo/.tasks',
      mailboxes: '/repo/.mailboxes',
      archive: '/repo/.mailboxes/archive',
      cron: '/repo/.cron',
      team: '/repo/.team',
      state: '/repo/.team/state',
      worktrees: '/repo/.worktrees',
      config: '/repo/.team/config.json',
    });
  });
});

describe('fileFor', () => {
  it('joins a valid id', () => {
    expect(fileFor('/repo/.tasks', 'build-parser')).toEqual({ ok: true, value: join('/repo/.tasks', 'build-parser.json') });
    expect(fileFor('/repo/.mailboxes/archive', 'worker-1', '.jsonl')).toEqual({
      ok: true,
      value: '/repo/.mailboxes/archive/worker-1.jsonl',
    });
  });

  it.each(['../x', '/etc/passwd', 'a/b', '', 'x'.repeat(200), 'a..b', '.hidden', '-dash', 'a\\b', 'a b'])(
    'refuses %j with a message naming it',
    (id) => {
      const file = fileFor('/repo/.tasks', id);
      expect(file.ok).toBe(false);
      if (!file.ok) expect(file.error).toContain(`invalid id ${JSON.stringify(id)}`);
    },
  );
});

describe('newId', () => {
  it('makes valid ids that sort in creation order, also within one millisecond', () => {
    const ids = Array.from({ length: 200 }, () => newId('t'));
    expect(ids.every((id) => ID_PATTERN.test(id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
