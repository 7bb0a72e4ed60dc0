/**
 * A broken `.team/config.json` (the roster cannot be read): the tools that
 * need it answer with the file and the field, the board still works, and the
 * server keeps serving.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { connectStdio, makeMcpRepo } from './support.js';

const repo = makeMcpRepo({ teammates: 'nobody', maxAttempts: -1 });
afterAll(() => repo.cleanup());

describe('teamd mcp on a broken config', () => {
  it('names the file and the field, and keeps serving the board', async () => {
    await using s = await connectStdio(repo.dir);
    for (const [tool, args] of [
      ['send_message', { to: 'lead', content: 'hi' }],
      ['inbox_read', {}],
      ['cron_add', { cron: '* * * * *', prompt: 'p' }],
    ] as const) {
      const r = await s.call(tool, args);
      expect(r.isError, tool).toBe(true);
      expect(r.text).toMatch(/\.team\/config\.json: .*teammates: /);
    }
    expect(await s.json('task_create', { subject: 'still works', id: 'ok' })).toMatchObject({ id: 'ok' });
    expect(await s.json('status', {})).toMatchObject({ tasks: { pending: 1 } });
  });
});
