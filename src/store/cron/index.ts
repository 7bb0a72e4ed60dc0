/** The cron store's public surface. */
export { CronStore } from './store.js';
export { checkCronExpression, formatScheduleError, nextFireAt } from './expression.js';
export type { ScheduleError } from './expression.js';
export { CronStoreOptionsSchema, NewCronJobSchema } from './types.js';
export type { CronMutation, CronStoreOptions, NewCronJob } from './types.js';
