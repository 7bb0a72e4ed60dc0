/**
 * Child processes that can be killed whole. A command runs detached, as the
 * leader of its own process group, so killing `-pid` reaches every process
 * it started (pipelines, `&` jobs, test runners' workers), not only the shell.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

/** True while a live (not zombie) process of the group exists. */
export function groupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  // A killed process stays a zombie until its parent reaps it, and an orphan's new parent (pid 1 in a
  // container) may take its time: on Linux, look at the states instead of waiting for the reaper.
  return existsSync('/proc/self/stat') ? liveMembers(pgid) > 0 : true;
}

/** SIGTERM to the group, then SIGKILL to what is left after `graceMs`. Resolves when the group is gone (or after the SIGKILL). */
export async function killProcessGroup(pgid: number, graceMs = 1000): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!groupAlive(pgid)) return;
    await delay(20);
  }
  signalGroup(pgid, 'SIGKILL');
}

function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function liveMembers(pgid: number): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = processStat(entry);
    if (stat !== null && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') count++;
  }
  return count;
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function processStat(pid: string): { state: string; pgrp: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', pgrp: Number(fields[2]) };
  } catch {
    return null; // exited while we looked
  }
}

/** True while the process exists and is not a zombie (for tests and supervisors). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (!existsSync('/proc/self/stat')) return true;
  const stat = processStat(String(pid));
  return stat !== null && stat.state !== 'Z' && stat.state !== 'X';
}
