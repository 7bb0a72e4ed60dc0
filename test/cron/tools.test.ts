import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { cronToolService } from '../../src/cron/tool-service.js';
import { createToolContext } from '../../src/tools/context.js';
import { cronCreateTool, cronDeleteTool, cronListTool, cronTools } from '../../src/tools/cron/index.js';
import type { AnyTool, ToolContext } from '../../src/tools/types.js';
import type { Harness } from './support/harness.js';
import { harness, inbox } from './support/harness.js';

const T0 = '2026-05-01T12:00:00.000Z';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function setup(): Promise<{ h: Harness; ctx: ToolContext }> {
  h = await harness(T0);
  await h.scheduler.start();
  const team = h.team;
  const cron = cronToolService({ store: h.source, scheduler: h.scheduler, validTargets: () => team.members });
  return { h, ctx: createToolContext({ root: h.root, agentName: 'lead', services: { cron } }) };
}

/** As the executor does: validate the input with the tool's schema, then run. */
async function call(tool: AnyTool, input: unknown, ctx: ToolContext) {
  return tool.run(tool.inputSchema.parse(input), ctx);
}

describe('cron tools', () => {
  it('cron_create writes a durable job that the scheduler fires without waiting for a watcher', async () => {
    const { h, ctx } = await setup();
    const out = await call(
      cronCreateTool,
      { id: 'standup', cron: '*/30 * * * * *', prompt: 'Report status', to: 'alice', timezone: 'UTC' },
      ctx,
    );
    expect(out).toMatchObject({ summary: 'scheduled standup' });
    expect(out.isError).toBeUndefined();
    expect(out.content).toContain('.cron/standup.json');
    expect(existsSync(join(h.root, '.cron', 'standup.json'))).toBe(true);
    await h.advance(30_000);
    expect((await inbox(h.root, 'alice')).map((m) => m.slot)).toEqual(['2026-05-01T12:00:30.000Z']);
  });

  it('cron_create with durable:false keeps the job in memory only', async () => {
    const { h, ctx } = await setup();
    const out = await call(
      cronCreateTool,
      { id: 'tmp', cron: '0 * * * * *', prompt: 'ping', to: 'bob', durable: false },
      ctx,
    );
    expect(out.content).toContain('memory only');
    expect(existsSync(join(h.root, '.cron', 'tmp.json'))).toBe(false);
    await h.advance(60_000);
    expect(await inbox(h.root, 'bob')).toHaveLength(1);
  });

  it('cron_create refuses a bad expression, time zone or target, saying which field', async () => {
    const { ctx } = await setup();
    const cases: [object, RegExp][] = [
      [{ cron: '* * *', prompt: 'p' }, /cron: .*3 field/],
      [{ cron: '0 9 * * *', prompt: 'p', timezone: 'Mars/Olympus' }, /timezone: unknown time zone/],
      [{ cron: '0 9 * * *', prompt: 'p', to: 'zed' }, /to: unknown target "zed"/],
    ];
    for (const [input, message] of cases) {
      const out = await call(cronCreateTool, input, ctx);
      expect(out.isError).toBe(true);
      expect(out.content).toMatch(message);
    }
    expect(cronCreateTool.inputSchema.safeParse({ cron: '0 9 * * *', prompt: 'p', every: 5 }).success).toBe(
      false,
    );
  });

  it('cron_list shows each job with its next fire, and broken files', async () => {
    const { h, ctx } = await setup();
    await call(
      cronCreateTool,
      { id: 'daily', cron: '0 9 * * 1-5', prompt: 'Triage new issues', to: 'any', timezone: 'Europe/Berlin' },
      ctx,
    );
    await call(
      cronCreateTool,
      {
        id: 'reminder',
        cron: '0 0 18 * * *',
        prompt: 'Wrap up',
        to: 'lead',
        recurring: false,
        durable: false,
        timezone: 'UTC',
      },
      ctx,
    );
    await writeFile(join(h.root, '.cron', 'broken.json'), '{');
    const out = await call(cronListTool, {}, ctx);
    const lines = out.content.split('\n');
    expect(lines[0]).toBe(
      'daily  "0 9 * * 1-5" Europe/Berlin → any  [next 2026-05-04T07:00:00.000Z]  Triage new issues',
    );
    expect(lines[1]).toBe(
      'reminder  "0 0 18 * * *" UTC → lead  [next 2026-05-01T18:00:00.000Z, once, in memory]  Wrap up',
    );
    expect(lines.slice(2).join('\n')).toMatch(
      /Skipped \(invalid files\):\n {2}\.cron\/broken\.json: invalid JSON/,
    );
    expect(cronListTool.isReadOnly({})).toBe(true);
  });

  it('cron_delete removes a job so it fires no more; an unknown id is an error', async () => {
    const { h, ctx } = await setup();
    await call(cronCreateTool, { id: 'gone', cron: '*/5 * * * * *', prompt: 'p', to: 'alice' }, ctx);
    expect((await call(cronDeleteTool, { id: 'gone' }, ctx)).content).toContain('Deleted cron job gone');
    expect(existsSync(join(h.root, '.cron', 'gone.json'))).toBe(false);
    expect(h.clock.pendingTimers()).toBe(0);
    await h.advance(10_000);
    expect(h.of('cron_fired')).toEqual([]);
    const missing = await call(cronDeleteTool, { id: 'nope' }, ctx);
    expect(missing).toMatchObject({ isError: true, content: expect.stringContaining('nope') });
  });

  it('declare their schemas for the model and need the cron service', async () => {
    for (const tool of cronTools)
      expect(z.toJSONSchema(tool.inputSchema, { io: 'input' })).toMatchObject({ type: 'object' });
    const bare = createToolContext({ root: process.cwd() });
    await expect(call(cronListTool, {}, bare)).rejects.toThrow(/ctx\.services\.cron/);
  });
});
