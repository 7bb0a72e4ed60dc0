import { z } from 'zod';
import { defineTool } from '../types.js';
import { cronService } from './types.js';

export const cronDeleteTool = defineTool({
  name: 'cron_delete',
  description:
    'Delete a cron job.',
  inputSchema: z.strictObject({ id: z.string().min(1) }),
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  run: async (input, ctx) => {
    const removed = await cronService(ctx).remove(input.id);
    if (!removed.ok) return { content: `Cron job not deleted: ${removed.error}`, isError: true };
    return {
      content: `Deleted cron job ${removed.value.id} ("${removed.value.cron}" → ${removed.value.to}).`,
      summary: `deleted ${input.id}`,
    };
  },
});
