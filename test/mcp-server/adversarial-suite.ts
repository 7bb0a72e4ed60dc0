/**
 * The adversarial suite (adversarial.test.ts runs it small inside `npm test`,
 * test/faults/full/mcp-hostile-input.test.ts large under `npm run test:faults`).
 * Generated bad input against the real `teamd mcp` process: ids and agent
 * names that are paths (traversal, absolute, separators, `..`), too long,
 * empty or odd; oversized subjects, descriptions and messages. Each call is a
 * tool error (`isError: true`) that names the field, and the team's files
 * are byte for byte what they were.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedSessions, type McpSession } from './support.js';

/** Declares the suite: `runs` generated cases per property, from `seed`. */
export function adversarialSuite(runs: number, seed?: number): void {
const shared = sharedSessions();
beforeAll(async () => {
  await shared.person.json('task_create', { subject: 'a real task', id: 'real' });
  await shared.person.json('send_message', { to: 'worker-1', content: 'a real message' });
  await shared.person.json('cron_add', { cron: '0 9 * * *', prompt: 'a real job', id: 'job' });
});

/** Every file under the team's folders (and the repository's top level), with its content. */
function snapshot(dir = shared.repo.dir, depth = 0): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    if (name === '.git' || name === 'events.jsonl') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(out, depth < 4 ? snapshot(path, depth + 1) : {});
    else out[path] = readFileSync(path, 'utf8');
  }
  return out;
}

const segment = fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/);
/** Ids and names a path-minded client might send: none is valid. */
const badId = fc.oneof(
  fc.constantFrom('', '..', '.', '../real', '../../etc/passwd', '/etc/passwd', 'a/b', 'a\\b', '.hidden', '-flag', 'real\n', 'x'.repeat(65), 'réal', 'a..b', 'nul\u0000byte'),
  segment.map((s) => `../${s}`),
  segment.map((s) => `${s}/../${s}`),
  fc.tuple(segment, segment).map(([a, b]) => `${a}/${b}`),
  fc.string({ minLength: 65, maxLength: 300 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).filter((s) => !/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(s) || s.includes('..')),
);

/** A tool call that must fail naming `field`, leaving the files as they were. */
async function refused(session: McpSession, tool: string, args: Record<string, unknown>, field: string): Promise<void> {
  const before = snapshot();
  const r = await session.call(tool, args);
  expect(r.isError, `${tool} ${JSON.stringify(args).slice(0, 200)} → ${r.text}`).toBe(true);
  expect(r.text).toMatch(namesField(field));
  expect(snapshot()).toEqual(before);
}

/** The field as a refusal names it: the SDK's `… at field` (`at field[0]`), a store's `field: …`, or `"field"` (an unknown key). */
const namesField = (field: string): RegExp => new RegExp(`(\\bat ${field}\\b|(^|\\n)${field}: |"${field}")`);

const RUNS = { numRuns: runs, seed };

describe(`adversarial input to teamd mcp (${runs} runs a property${seed === undefined ? '' : `, seed ${seed}`})`, () => {
  it('bad task ids', async () => {
    await fc.assert(
      fc.asyncProperty(badId, fc.constantFrom('task_get', 'task_cancel', 'task_retry', 'task_update'), async (id, tool) => {
        await refused(shared.person, tool, tool === 'task_update' ? { id, subject: 'x' } : { id }, 'id');
      }),
      RUNS,
    );
  });

  it('bad ids in a new task: its id, blockedBy, owner', async () => {
    await fc.assert(
      fc.asyncProperty(badId, fc.constantFrom('id', 'blockedBy', 'owner'), async (bad, field) => {
        const value = field === 'blockedBy' ? [bad] : bad;
        await refused(shared.person, 'task_create', { subject: 'x', [field]: value }, field);
      }),
      RUNS,
    );
  });

  it('bad agent names: mail recipients, inboxes, cron targets', async () => {
    await fc.assert(
      fc.asyncProperty(badId, fc.constantFrom('send', 'inbox', 'ack', 'cron'), async (name, what) => {
        if (what === 'send') await refused(shared.person, 'send_message', { to: name, content: 'hi' }, 'to');
        if (what === 'inbox') await refused(shared.person, 'inbox_read', { agent: name }, 'agent');
        if (what === 'ack') await refused(shared.person, 'inbox_ack', { agent: name, ids: ['m'] }, 'agent');
        if (what === 'cron') await refused(shared.person, 'cron_add', { cron: '* * * * *', prompt: 'p', to: name }, 'to');
      }),
      RUNS,
    );
  });

  it('bad request and cron ids', async () => {
    await fc.assert(
      fc.asyncProperty(badId, async (id) => {
        await refused(shared.person, 'answer', { id, approve: true }, 'id');
        await refused(shared.person, 'cron_remove', { id }, 'id');
      }),
      RUNS,
    );
  });

  it('oversized fields', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['task_create', { subject: 's'.repeat(501) }, 'subject'],
      ['task_create', { subject: 'ok', description: 'd'.repeat(100_001) }, 'description'],
      ['task_update', { id: 'real', subject: '' }, 'subject'],
      ['send_message', { to: 'worker-1', content: 'c'.repeat(1_000_001) }, 'content'],
      ['send_message', { to: 'worker-1', content: '' }, 'content'],
      ['cron_add', { cron: '* * * * *', prompt: 'p'.repeat(100_001) }, 'prompt'],
      ['inbox_ack', { ids: Array.from({ length: 1001 }, (_, i) => `m${i}`) }, 'ids'],
      ['events_tail', { count: 501 }, 'count'],
      ['task_create', { subject: 'ok', priority: 1.5 }, 'priority'],
      ['task_create', { subject: 'ok', unknownField: 1 }, 'unknownField'],
    ];
    for (const [tool, args, field] of cases) await refused(shared.person, tool, args, field);
  });

  it('under --as, another agent\'s inbox and the person\'s tools', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('worker-2', 'lead', 'user'), async (other) => {
        await refused(shared.agent, 'inbox_read', { agent: other }, 'agent');
        await refused(shared.agent, 'inbox_ack', { agent: other, ids: ['x'] }, 'agent');
      }),
      { numRuns: Math.min(runs, 6), seed },
    );
    const answer = await shared.agent.call('answer', { id: 'x', approve: true });
    expect(answer.isError).toBe(true);
  });

  it('the real files are still there and valid', async () => {
    expect(await shared.person.json('task_get', { id: 'real' })).toMatchObject({ subject: 'a real task' });
    expect(await shared.agent.json('inbox_read', {})).toMatchObject([{ content: 'a real message' }]);
    expect(await shared.person.json('cron_list', {})).toMatchObject([{ id: 'job' }]);
  });
});
}
