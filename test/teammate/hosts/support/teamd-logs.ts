/** `teamd logs <agent>` run as a real process on a team's folder: its stdout lines and exit code. */
import { fileURLToPath } from 'node:url';
import { spawnTs } from '../../../support/race/spawn-ts.js';

const ENTRY = fileURLToPath(new URL('../../../observe/support/logs-entry.ts', import.meta.url));

export async function teamdLogs(dir: string, agent: string): Promise<{ code: number | null; lines: string[]; stderr: string }> {
  const run = spawnTs(ENTRY, ['logs', agent, '--dir', dir]);
  const { code, stderr } = await run.exited;
  return { code, lines: run.lines, stderr };
}
