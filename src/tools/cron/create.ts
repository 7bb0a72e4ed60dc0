import { z } from 'zod';
import { defineTool } from '../types.js';
import { describeCreated } from './format.js';
import { cronService } from './types.js';

const CronCreateInput = z.strictObject({
  cron: z
    .string()
    .min(1)
    .describe('"0 9 * * 1-5" (6 fields: seconds first)'),
  prompt: z.string().min(1),
  to: z.string().optional().describe('Default "any": the first idle'),
  id: z.string().optional(),
  recurring: z
    .boolean()
    .optional()
    .describe('false: fire once'),
  timezone: z
    .string()
    .optional()
    .describe('IANA'),
  catchUp: z
    .enum(['once', 'skip'])
    .optional()
    .describe('Fires missed while down'),
  durable: z
    .boolean()
    .optional()
    .describe('false: in memory only'),
  expiresAt: z.iso
    .datetime()
    .optional()
    .describe('Last time it may fire'),
});

export const cronCreateTool = defineTool({
  name: 'cron_create',
  description: [
    'Schedule a prompt by cron expression; each fire arrives as a `cron` message. Jobs survive restarts.',
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
