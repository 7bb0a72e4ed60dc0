/**
 * An idle team's transcripts while `teamd top` is measured (issue 24): every
 * `everyMs` a teammate (w1…w4 in turn) answers a mail batch, a new session
 * written in two steps (its first model call, then the second call and the
 * result `everyMs / 3` later), as the soak's sessions are. Its files are
 * named `live-<n>` so the caller can remove them after a window.
 *
 *   node --import tsx bench/soak/top-writer.ts <repo> [everyMs=3000]
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sessionLines } from './sessions.js';

const AGENTS = ['w1', 'w2', 'w3', 'w4'];

/** Starts writing; the returned function stops it. */
export function writeSessions(repo: string, everyMs: number): () => void {
  let n = 0;
  const timers = new Set<NodeJS.Timeout>();
  const tick = setInterval(() => {
    const agent = AGENTS[n % AGENTS.length]!;
    const dir = join(repo, '.team', 'state', 'transcripts', agent);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `live-${n}.jsonl`);
    const lines = sessionLines(agent, 1_000_000 + n++, new Date().toISOString()).split('\n');
    writeFileSync(file, lines.slice(0, 3).join('\n') + '\n');
    const rest = setTimeout(() => {
      timers.delete(rest);
      appendFileSync(file, lines.slice(3).join('\n'));
    }, everyMs / 3);
    timers.add(rest);
  }, everyMs);
  return () => {
    clearInterval(tick);
    for (const t of timers) clearTimeout(t);
  };
}

if (process.argv[1]?.endsWith('top-writer.ts')) {
  const [repo, everyMs = '3000'] = process.argv.slice(2);
  if (!repo) throw new Error('usage: top-writer.ts <repo> [everyMs]');
  writeSessions(repo, Number(everyMs));
}
