/** `teamd web [--port N] [--open]`: the dashboard as a local web page (docs/WEB.md). */
import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { z } from 'zod';
import { loadConfig } from '../config/load.js';
import { startWebServer } from '../web/server.js';
import { fail } from './cli-error.js';
import { printLine } from './output.js';
import { addDirOption, resolveRepoDir, type DirOption } from './repo-dir.js';

export interface WebCommandOptions extends DirOption {
  port?: string;
  open?: boolean;
}

const PortSchema = z.coerce.number().int().min(0).max(65_535);

export function registerWebCommand(program: Command): void {
  addDirOption(
    program
      .command('web')
      .description('a live web dashboard on 127.0.0.1: task graph, teammates, transcripts, approvals, reviews, cost'),
  )
    .option('--port <n>', 'the port (default: any free one)', '0')
    .option('--open', 'open the page in the default browser')
    .action((o: WebCommandOptions) => web(o));
}

/** Opens `url` with the desktop's opener; a machine without one just has the printed URL. */
function openInBrowser(url: string): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(opener, [url], { detached: true, stdio: 'ignore' });
  child.on('error', () => printLine(`(could not run ${opener}: open the URL yourself)`));
  child.unref();
}

export async function web(options: WebCommandOptions): Promise<void> {
  const repoRoot = resolveRepoDir(options);
  const loaded = await loadConfig(repoRoot);
  if (!loaded.ok) fail(loaded.error);
  const port = PortSchema.safeParse(options.port ?? '0');
  if (!port.success) fail(`--port: must be a whole number from 0 to 65535, got "${options.port}"`);
  const server = await startWebServer({ repoRoot, config: loaded.config, port: port.data }).catch((err: Error) =>
    fail(`teamd web: cannot listen on 127.0.0.1:${port.data}: ${err.message}`),
  );
  printLine(`teamd web: ${server.url}`);
  printLine('(the token in the URL is the key to this page; stop with Ctrl-C)');
  if (options.open) openInBrowser(server.url);
  await new Promise<void>((resolve) => {
    const stop = (): void => void server.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
