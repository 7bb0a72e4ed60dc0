/** Scheduled prompts in `.cron/`: the store calls `teamd cron ls/add/rm` make. */
import { z } from 'zod';
import { nextFireAt } from '../store/cron/expression.js';
import { CatchUpSchema, CronJobSchema } from '../store/types.js';
import { AgentName, Id } from './fields.js';
import { cronFor } from './stores.js';
import { defineMcpTool, ok, refuse } from './types.js';

export const cronList = defineMcpTool({
  name: 'cron_list',
  description: 'Scheduled prompts with their next fire time.',
  input: z.strictObject({}),
  readOnly: true,
  run: async (_input, scope) => {
    const store = await cronFor(scope);
    if (!store.ok) return refuse(store.error);
    const now = new Date();
    const { jobs } = await store.value.list();
    return ok(jobs.map((j) => ({ id: j.id, cron: j.cron, to: j.to, recurring: j.recurring, timezone: j.timezone ?? null, prompt: j.prompt, next: j.done ? null : (nextFireAt(j, now)?.toISOString() ?? null) })));
  },
});

export const cronAdd = defineMcpTool({
  name: 'cron_add',
  description: 'Schedule a prompt (5 or 6 cron fields) for a teammate, lead or any; returns its id.',
  input: z.strictObject({
    cron: CronJobSchema.shape.cron.max(200),
    prompt: CronJobSchema.shape.prompt,
    to: AgentName.optional(),
    once: z.boolean().optional(),
    catchUp: CatchUpSchema.optional(),
    timezone: z.string().min(1).max(100).optional(),
    id: Id.optional(),
  }),
  run: async ({ once, ...job }, scope) => {
    const store = await cronFor(scope);
    if (!store.ok) return refuse(store.error);
    const added = await store.value.add({ ...job, to: job.to ?? 'any', recurring: !once });
    return added.ok ? ok({ id: added.value.id }) : refuse(added.error);
  },
});

export const cronRemove = defineMcpTool({
  name: 'cron_remove',
  description: 'Remove a scheduled prompt.',
  input: z.strictObject({ id: Id }),
  run: async ({ id }, scope) => {
    const store = await cronFor(scope);
    if (!store.ok) return refuse(store.error);
    const removed = await store.value.remove(id);
    return removed.ok ? ok({ removed: id }) : refuse(`id: ${removed.error}`);
  },
});

export const CRON_TOOLS = [cronList, cronAdd, cronRemove];
