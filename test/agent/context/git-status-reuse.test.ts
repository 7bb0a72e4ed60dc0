import { describe, expect, test } from 'vitest';
import { gitStatusSummary, noteWorkspaceChange } from '../../../src/agent/context/git.js';
import { gitRepo } from './git-repo.js';

describe('git status shared by sessions starting close together', () => {
  test('is reused for the next session, and asked afresh once a tool that may write has run', async () => {
    await using repo = await gitRepo();
    await repo.file('a.txt', 'a\n');
    const first = await gitStatusSummary(repo.path);
    expect(first).toContain('?? a.txt');

    await repo.file('b.txt', 'b\n'); // changed by someone else: a snapshot need not show it yet
    expect(await gitStatusSummary(repo.path)).toBe(first);

    noteWorkspaceChange(); // this thread's own tool wrote: its next session must see the change
    const fresh = await gitStatusSummary(repo.path);
    expect(fresh).toContain('?? b.txt');
  });
});
