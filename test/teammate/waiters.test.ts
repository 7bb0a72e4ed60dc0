import { describe, expect, it } from 'vitest';
import { Waiters } from '../../src/teammate/waiters.js';

describe('Waiters', () => {
  it('settles a waiting request with its verdict', async () => {
    const w = new Waiters();
    const pending = w.wait('r1', 60_000);
    expect(w.settle('r1', { approve: true, reason: '', by: 'user' })).toBe(true);
    await expect(pending).resolves.toMatchObject({ approve: true, by: 'user' });
    expect(w.size).toBe(0);
  });

  it('times out instead of hanging, and an abort ends the wait', async () => {
    const w = new Waiters();
    await expect(w.wait('r2', 10)).resolves.toBe('timeout');
    const c = new AbortController();
    const pending = w.wait('r3', 60_000, c.signal);
    c.abort();
    await expect(pending).resolves.toBe('aborted');
    expect(w.settle('r3', { approve: true, reason: '', by: 'x' })).toBe(false);
  });
});
