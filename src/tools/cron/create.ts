import { z } from 'zod';
import { defineTool } from '../types.js';
import { describeCreated } from './format.js';
import { cronService } from './types.js';

const CronCreateInput = z.strictObject({
  cron: z
    .string()
    .min(1)
    .describe(
      '5 fields "minute hour day-of-month month day-of-week" (e.g. "0 9 * * 1-5"), or 6 with seconds first',
    ),
  prompt: z.string().min(1).describe('What the target is asked to do at each fire'),
  to: z.string().optional().describe('A teammate name, "lead", or "any" (the first idle teammate; default)'),
  id: z.string().optional().describe('A readable id (letters, digits, . _ -); generated when absent'),
  recurring: z
    .boolean()
    .optional()
    .describe('false: fire once at the next matching time, then done (default true)'),
  timezone: z
    .string()
    .optional()
    .describe('IANA time zone for the expression, e.g. "Europe/Berlin" (default: the machine’s)'),
  catchUp: z
    .enum(['once', 'skip'])
    .optional()
    .describe('Fires missed while the daemon was down: "once" runs one, "skip" drops them (default)'),
  durable: z
    .boolean()
    .optional()
    .describe('false: keep the job in memory only, until the daemon stops (default true: a .cron/ file)'),
  expiresAt: z.iso
    .datetime()
    .optional()
    .describe('ISO time after which the job fires no more (default: never)'),
});

export const cronCreateTool = defineTool({
  name: 'cron_create',
  description: [
    'Schedule a prompt to be sent to a teammate, the lead, or any idle teammate at times given by a cron expression.',
    'Each fire arrives as a `cron` message. Jobs are durable by default (a .cron/<id>.json file that survives restarts)',
    'and never expire unless you give expiresAt. Use recurring:false for a single reminder.',
  ].join(' '),
  inputSchema: CronCreateInput,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  run: async (input, ctx) => {
    const created = await cronService(ctx).create(input);
    if (!created.ok) return { content: `Cron job not created: ${created.error}`, isError: true };
    return { content: describeCreated(created.value), summary: `scheduled ${created.value.id}` };
  },
});
