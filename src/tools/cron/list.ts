import { z } from 'zod';
import { formatProblem } from '../../store/problems.js';
import { defineTool } from '../types.js';
import { formatCronListing } from './format.js';
import { cronService } from './types.js';

export const cronListTool = defineTool({
  name: 'cron_list',
  description:
    'The cron jobs, their next fires, and broken job files.',
  inputSchema: z.strictObject({}),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  run: async (_input, ctx) => {
    const { jobs, problems } = await cronService(ctx).list();
    const lines = jobs.map(formatCronListing);
    if (problems.length)
      lines.push('Skipped (invalid files):', ...problems.map((p) => `  ${formatProblem(p)}`));
    return {
      content: lines.length ? lines.join('\n') : 'No cron jobs.',
      summary: `${jobs.length} cron job(s)`,
    };
  },
});
