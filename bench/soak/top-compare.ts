/**
 * `teamd top` of two builds on one repository, interleaved (the machine is
 * shared: a run of each in turn, `uptime` before each): CPU over the window,
 * the largest VmRSS sampled, VmHWM (the first read included) and the last
 * VmRSS. A build is a folder holding `dist/cli/main.js` (the before: a copy
 * of main's dist/ with node_modules linked beside it). While each `top`
 * runs, a writer process adds a session every `writeEveryMs` (top-writer.ts:
 * an idle team answering mail; 0: none), removed again after the window.
 *
 *   node --import tsx bench/soak/top-compare.ts <repo> <before-dir> <after-dir> [rounds=2] [windowMs=30000] [writeEveryMs=3000]
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sampleTop } from './top-sample.js';

const [repo, before, after, rounds = '2', windowMs = '30000', writeEveryMs = '3000'] = process.argv.slice(2);
if (!repo || !before || !after) throw new Error('usage: top-compare.ts <repo> <before-dir> <after-dir> [rounds] [windowMs]');
const writerScript = join(import.meta.dirname, 'top-writer.ts');
const startWriter = () =>
  spawn(process.execPath, ['--import', 'tsx', writerScript, repo, writeEveryMs], { stdio: 'inherit' });

/** Stops the writer and removes what it wrote, so each window starts from the same repository. */
function stopWriter(writer: ReturnType<typeof startWriter>): void {
  writer.kill();
  const root = join(repo!, '.team', 'state', 'transcripts');
  for (const agent of readdirSync(root))
    for (const name of readdirSync(join(root, agent))) if (name.startsWith('live-')) rmSync(join(root, agent, name));
}

const load = (): string => execFileSync('uptime', { encoding: 'utf8' }).trim().replace(/.*load average: /, '');
for (let round = 0; round < Number(rounds); round++)
  for (const [name, dir] of [['before', before], ['after', after]] as const) {
    const at = load();
    const writer = Number(writeEveryMs) > 0 ? startWriter() : null;
    const s = await sampleTop([process.execPath, join(dir, 'dist', 'cli', 'main.js')], repo, Number(windowMs)).finally(
      () => writer && stopWriter(writer),
    );
    const mb = (n: number): string => n.toFixed(0);
    console.log(
      `${name.padEnd(6)} cpu ${s.cpuPercent.toFixed(1)}%  max VmRSS ${mb(s.rssMB)} MB  VmHWM ${mb(s.hwmMB)} MB  last VmRSS ${mb(s.lastRssMB)} MB  first frame ${mb(s.firstFrameMs)} ms  load ${at}`,
    );
  }
