/**
 * `teamd top` in a real pseudo-terminal (a private tmux server, 120×40) and
 * its CPU and RSS read from /proc over a window: CPU as the share of one core
 * (utime + stime ticks over the window), RSS as the largest VmRSS seen.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_S = 100; // USER_HZ on Linux

function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
}

const rssOf = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

const hwmOf = (pid: number): number =>
  Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

const parentOf = (pid: string): number => {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
  } catch {
    return -1;
  }
};

/** The node process of the pane: the pane's own process or its first node descendant. */
function nodePid(panePid: number): number {
  const comm = readFileSync(`/proc/${panePid}/comm`, 'utf8').trim();
  if (comm === 'node') return panePid;
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e)))
    if (parentOf(entry) === panePid) return nodePid(Number(entry));
  throw new Error(`no node process under the pane (${panePid})`);
}

export interface TopSample {
  cpuPercent: number;
  rssMB: number;
  /** The kernel's high-water mark of the process's RSS (VmHWM), first read included; and VmRSS at the end. */
  hwmMB: number;
  lastRssMB: number;
  /** How long the first frame took to show. */
  firstFrameMs: number;
}

export async function sampleTop(command: string[], repo: string, windowMs: number): Promise<TopSample> {
  const socket = `teamd-soak-${process.pid}`;
  const tmux = (...args: string[]): string =>
    execFileSync('tmux', ['-L', socket, ...args], {
      encoding: 'utf8',
      env: { ...process.env, TERM: 'xterm-256color' },
    });
  const line = [...command, 'top', '--dir', repo].map((a) => `'${a}'`).join(' ');
  const began = performance.now();
  tmux('new-session', '-d', '-s', 'top', '-x', '120', '-y', '40', line);
  try {
    while (!/Teammates|TEAMMATE|Tasks/i.test(tmux('capture-pane', '-p', '-t', 'top'))) {
      if (performance.now() - began > 120_000) throw new Error('teamd top drew nothing in 120 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    const firstFrameMs = performance.now() - began;
    const pid = nodePid(Number(tmux('list-panes', '-t', 'top', '-F', '#{pane_pid}').trim()));
    await new Promise((r) => setTimeout(r, 3000)); // past the first full refresh
    const [t0, c0] = [performance.now(), cpuTicks(pid)];
    let rss = rssOf(pid);
    while (performance.now() - t0 < windowMs) {
      await new Promise((r) => setTimeout(r, 1000));
      rss = Math.max(rss, rssOf(pid));
    }
    const seconds = (performance.now() - t0) / 1000;
    const cpuPercent = ((cpuTicks(pid) - c0) / TICKS_PER_S / seconds) * 100;
    return { cpuPercent, rssMB: rss, hwmMB: hwmOf(pid), lastRssMB: rssOf(pid), firstFrameMs };
  } finally {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
  }
}
