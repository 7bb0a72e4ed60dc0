import { describe, expect, it } from 'vitest';
import { cleanSummary } from '../../src/cli/worktrees.js';

const report = (fields: Partial<Parameters<typeof cleanSummary>[0]> = {}) => ({
  removed: [],
  kept: [],
  deletedBranches: [],
  errors: [],
  ...fields,
});

describe('teamd worktrees clean says what it did', () => {
  it('also when there was nothing to do', () => {
    expect(cleanSummary(report())).toBe('nothing to clean: no worktree of a completed or cancelled task under .worktrees/');
  });

  it('counts what it removed, kept, deleted and failed', () => {
    expect(cleanSummary(report({ removed: ['a'] }))).toBe('removed 1 worktree, kept 0');
    expect(
      cleanSummary(
        report({
          removed: ['a', 'b'],
          kept: [{ taskId: 'c', reason: 'uncommitted changes' }],
          deletedBranches: ['teamd/a', 'teamd/b'],
          errors: [{ taskId: 'd', error: 'EBUSY' }],
        }),
      ),
    ).toBe('removed 2 worktrees, kept 1, deleted 2 branches, 1 failed');
  });
});
