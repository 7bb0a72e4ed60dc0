/**
 * cron-parser, loaded on first use rather than with the cron store: every
 * teammate thread links the store (for its cron tools) but few ever schedule,
 * and cron-parser brings luxon (0.36 MB of source together). It is CommonJS,
 * so `require` loads it synchronously and every check stays a plain function.
 */
import { createRequire } from 'node:module';

type CronParserModule = typeof import('cron-parser');
export type CronExpressionParser = CronParserModule['CronExpressionParser'];

let loaded: CronParserModule | undefined;

/** `CronExpressionParser` of cron-parser, requiring the package the first time. */
export function cronExpressionParser(): CronExpressionParser {
  loaded ??= createRequire(import.meta.url)('cron-parser') as CronParserModule;
  return loaded.CronExpressionParser;
}
