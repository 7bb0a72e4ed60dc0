import { expect, it } from 'vitest';
import { approvalLines } from '../../src/dashboard/panels/side.js';

const text = (lines: ReturnType<typeof approvalLines>) => lines.map((l) => l.map((s) => s.text).join(''));

it('lists tasks waiting in review beside the approvals', () => {
  const reviews = [{ id: 't1', owner: 'ann', subject: 'write the parser' }];
  const shown = text(approvalLines([], 5, 60, null, reviews));
  expect(shown[0]).toContain('Approvals (0) · reviews (1)');
  expect(shown[1]).toContain('review t1');
  expect(shown[1]).toContain('ann: write the parser');
  expect(text(approvalLines([], 5, 60, null))).toContain('nothing waits for you');
});
