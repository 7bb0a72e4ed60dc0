import type { AnyTool } from '../types.js';
import { cronCreateTool } from './create.js';
import { cronDeleteTool } from './delete.js';
import { cronListTool } from './list.js';

export { cronCreateTool, cronDeleteTool, cronListTool };
export type { CronJobListing, CronToolService } from './types.js';

/** The three cron tools; they need `ctx.services.cron`. */
export const cronTools: AnyTool[] = [cronCreateTool, cronListTool, cronDeleteTool];
