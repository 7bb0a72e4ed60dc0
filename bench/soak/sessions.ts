/**
 * Finished transcript sessions written straight as files, as the teammates
 * write them (one mail batch each: a header, the prompt, two model calls and
 * the result), `perAgent` in each agent's folder, dated from `since` on, a
 * second apart. Used by top-repo.ts, top-writer.ts and status-live.ts (issue 24).
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const MODELS = ['claude-sonnet-4-5', 'claude-haiku-4-5'];

const usage = (i: number) => ({
  input_tokens: 1_000 + (i % 97),
  output_tokens: 100 + (i % 13),
  cache_read_input_tokens: 20_000 + i,
  cache_creation_input_tokens: 500 + (i % 7),
});

/** One finished mail batch: a header, the prompt, two model calls (one on each model every third run) and the result. */
export function sessionLines(agent: string, i: number, at: string): string {
  const session = `${agent}-s${i}`;
  const parent = `mail:m-${agent}-${i}`;
  const base = (n: number) => ({ session_id: session, parent_id: parent, depth: 0, uuid: `${session}-${n}` });
  const second = i % 3 === 0 ? MODELS[1]! : MODELS[0]!;
  const lines = [
    { type: 'header', version: 1, session_id: session, agent, model: MODELS[0], cwd: '/repo', created: at },
    { type: 'user', message: { role: 'user', content: [{ type: 'text', text: `mail ${i}: please look at h${i}` }] }, ...base(1) },
    { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Looking.' }] }, model: MODELS[0], usage: usage(i), ...base(2) },
    { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `Noted ${i}.` }] }, model: second, usage: usage(i + 1), ...base(3) },
    {
      type: 'result',
      subtype: 'success',
      total_cost_usd: 0.01 + (i % 50) / 1000,
      usage: second === MODELS[0] ? { [MODELS[0]]: usage(i) } : { [MODELS[0]!]: usage(i), [second]: usage(i + 1) },
      ...base(4),
    },
  ];
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

export function writeSessions(repoDir: string, agents: readonly string[], perAgent: number, since: Date): void {
  for (const agent of agents) {
    const dir = join(repoDir, '.team', 'state', 'transcripts', agent);
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < perAgent; i++) {
      const file = join(dir, `${agent}-s${i}.jsonl`);
      const at = new Date(since.getTime() + i * 1_000);
      writeFileSync(file, sessionLines(agent, i, at.toISOString()));
      utimesSync(file, at, at);
    }
  }
}
