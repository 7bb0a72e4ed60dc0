/**
 * The daemon's modules the soak bench drives: from dist/ (what users run,
 * see support/dist.ts), or with `--src` from src/ through tsx (the quick
 * test, which must not need a build).
 */
import { fileURLToPath } from 'node:url';
import { fromDist } from '../support/dist.js';

export const fromSource = process.argv.includes('--src');
const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

async function load<T>(path: string): Promise<T> {
  if (!fromSource) return fromDist<T>(path);
  return (await import(new URL(`file://${SRC}${path.replace(/\.js$/, '.ts')}`).href)) as T;
}

export async function soakModules() {
  const [lead, tasks, mailbox, stall, gc, config, progress] = await Promise.all([
    load<typeof import('../../src/lead/lead.js')>('lead/lead.js'),
    load<typeof import('../../src/store/tasks/index.js')>('store/tasks/index.js'),
    load<typeof import('../../src/store/mailbox/index.js')>('store/mailbox/index.js'),
    load<typeof import('../../src/notify/stall.js')>('notify/stall.js'),
    load<typeof import('../../src/history/gc.js')>('history/gc.js'),
    load<typeof import('../../src/config/load.js')>('config/load.js'),
    load<typeof import('../../src/lead/progress.js')>('lead/progress.js'),
  ]);
  return {
    Lead: lead.Lead,
    TaskStore: tasks.TaskStore,
    MailboxStore: mailbox.MailboxStore,
    reportStalled: stall.reportStalled,
    collectGarbage: gc.collectGarbage,
    loadConfig: config.loadConfig,
    ProgressTimes: progress.ProgressTimes,
  };
}

/** How to run the `teamd` CLI the same way: [command, ...args before the CLI's own]. */
export const cliCommand = (): string[] =>
  fromSource
    ? [process.execPath, '--import', import.meta.resolve('tsx'), `${SRC}cli/main.ts`]
    : [process.execPath, fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))];
