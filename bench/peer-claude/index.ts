/**
 * teamd `agent -p` side by side with the real Claude Code CLI (pinned, from
 * test/support/claude-code/install.ts; skipped with a note when it cannot be
 * installed): the same scripted conversations (text; bash in 2 and 3 turns;
 * read) against the same fake Messages API, runs interleaved (Claude Code,
 * teamd, next conversation, …) so both see the same machine load. Measured
 * at a timing proxy in front of the server: start → first request, each gap
 * (answer written to the end → next request complete), exit (last answer →
 * process gone), wall, peak RSS (GNU time), request bytes and estimated
 * tokens per request. Every teamd row names its Claude Code row as the floor,
 * so the table shows teamd / Claude Code.
 *
 *   npm run bench -- peer-claude [--quick]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import { estimateTokens } from '../../src/model/usage.js';
import { claudeCodeEnv, ensureClaudeCode } from '../../test/support/claude-code/install.js';
import { benchArgs, sized } from '../support/args.js';
import { DIST } from '../support/dist.js';
import { BenchReport } from '../support/report.js';
import { CONVERSATIONS, READ_FILE, scriptFor, type Client, type Conversation } from './conversations.js';
import { TimingProxy, type Exchange } from './proxy.js';

const args = benchArgs();
const ROUNDS = sized(args, 6, 2);
const API_KEY = 'sk-ant-test-offline';
const GNU_TIME = '/usr/bin/time';
const LABEL: Record<Client, string> = { claude: 'Claude Code', teamd: 'teamd' };

interface Run {
  start: number;
  gaps: number[];
  exit: number;
  wall: number;
  rssMb: number;
  bytes: number[];
  tokens: number[];
  toolTokens: number[];
  /** A conversation of bash calls (its gaps are the bash turns' gaps). */
  bash: boolean;
  ok: boolean;
}

/** The command line of one client's run. */
function commandOf(client: Client, bin: string, prompt: string): string[] {
  if (client === 'claude')
    return [bin, '-p', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions', prompt];
  const main = join(DIST, 'cli', 'main.js');
  return [process.execPath, main, 'agent', '-p', '--output-format', 'stream-json', '--permission-mode', 'bypassPermissions', prompt];
}

function envOf(client: Client, baseURL: string, home: string): NodeJS.ProcessEnv {
  if (client === 'claude') return claudeCodeEnv(baseURL, home);
  return { PATH: process.env.PATH, HOME: home, ANTHROPIC_BASE_URL: baseURL, ANTHROPIC_API_KEY: API_KEY };
}

const tokensOf = (value: unknown): number => (value === undefined ? 0 : estimateTokens(JSON.stringify(value)));

/** Spawns one run under GNU time (for the peak RSS) and resolves when the process is gone. */
async function spawnRun(cmd: string[], cwd: string, env: NodeJS.ProcessEnv, rssFile: string): Promise<{ began: number; ended: number; code: number | null }> {
  const withTime = existsSync(GNU_TIME) ? [GNU_TIME, '-o', rssFile, '-f', '%M', ...cmd] : cmd;
  const began = performance.now();
  const child = spawn(withTime[0]!, withTime.slice(1), { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  if (code !== 0) console.warn(`  (exit ${code}: ${stderr.trim().split('\n').slice(-2).join(' | ')})`);
  return { began, ended: performance.now(), code };
}

function measured(exchanges: Exchange[], began: number, ended: number, rssFile: string, ok: boolean, bash: boolean): Run {
  const first = exchanges[0];
  const last = exchanges.at(-1);
  const rss = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1)) / 1024 : NaN;
  const body = (e: Exchange) => (e.body ?? {}) as { tools?: unknown };
  return {
    start: first ? first.receivedAt - began : NaN,
    gaps: exchanges.slice(1).map((e, i) => e.receivedAt - exchanges[i]!.doneAt),
    exit: last ? ended - last.doneAt : NaN,
    wall: ended - began,
    rssMb: rss,
    bytes: exchanges.map((e) => e.bytes),
    tokens: exchanges.map((e) => tokensOf(e.body)),
    toolTokens: exchanges.map((e) => tokensOf(body(e).tools)),
    bash,
    ok,
  };
}

async function runOnce(client: Client, bin: string, conversation: Conversation): Promise<Run> {
  const cwd = mkdtempSync(join(tmpdir(), 'teamd-peer-'));
  const home = mkdtempSync(join(tmpdir(), 'teamd-peer-home-'));
  writeFileSync(join(cwd, READ_FILE), 'hello\n');
  const server = await startFakeAnthropicServer({ apiKey: API_KEY, script: scriptFor(conversation, client, cwd) as never });
  const proxy = await new TimingProxy(server.url).listen();
  try {
    const rssFile = join(home, 'rss');
    const run = await spawnRun(commandOf(client, bin, conversation.prompt), cwd, envOf(client, proxy.url, home), rssFile);
    const ok = run.code === 0 && proxy.exchanges.length === conversation.answers.length;
    const bash = conversation.answers.some((a) => 'tool' in a && a.tool === 'bash');
    return measured(proxy.exchanges, run.began, run.ended, rssFile, ok, bash);
  } finally {
    await proxy[Symbol.asyncDispose]();
    await server[Symbol.asyncDispose]();
    rmSync(cwd, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

function reportRows(report: BenchReport, runs: Map<string, Run[]>, clients: Client[]): void {
  const all = (client: Client, pick: (r: Run) => number[]) =>
    CONVERSATIONS.flatMap((c) => (runs.get(`${client}/${c.name}`) ?? []).flatMap(pick)).filter((v) => !Number.isNaN(v));
  const metric = (name: string, unit: string, pick: (r: Run) => number[]) => {
    for (const client of clients)
      report.row(`${name} — ${LABEL[client]}`, all(client, pick), unit, client === 'teamd' && clients.length > 1 ? `${name} — ${LABEL.claude}` : undefined);
  };
  metric('start → first request', 'ms', (r) => [r.start]);
  // The gaps of the bash conversations (the "bash echo"); the read conversation's turn is its own row.
  // A first tool turn pays the process's first-time work (the response path, the first fork), so it is shown apart.
  metric('gap: answer done → next request (bash)', 'ms', (r) => (r.bash ? r.gaps : []));
  metric('gap, bash: the first tool turn of a run', 'ms', (r) => (r.bash ? r.gaps.slice(0, 1) : []));
  metric('gap, bash: later turns', 'ms', (r) => (r.bash ? r.gaps.slice(1) : []));
  metric('gap: answer done → next request (read)', 'ms', (r) => (r.bash ? [] : r.gaps));
  metric('last answer → exit', 'ms', (r) => [r.exit]);
  for (const c of CONVERSATIONS)
    for (const client of clients)
      report.row(`wall, ${c.name} — ${LABEL[client]}`, (runs.get(`${client}/${c.name}`) ?? []).map((r) => r.wall), 'ms',
        client === 'teamd' && clients.length > 1 ? `wall, ${c.name} — ${LABEL.claude}` : undefined);
  metric('peak RSS', 'MB', (r) => [r.rssMb]);
  metric('request bytes', 'bytes', (r) => r.bytes);
  metric('tokens per request (estimated)', 'tokens', (r) => r.tokens);
  metric('tool-schema tokens per request', 'tokens', (r) => r.toolTokens);
}

function reportTargets(report: BenchReport, clients: Client[]): void {
  const median = (name: string) => report.data.rows[name]?.median ?? NaN;
  const start = median('start → first request — teamd');
  const ccStart = median('start → first request — Claude Code');
  if (clients.length > 1)
    report.target('start vs Claude Code', '≤ 0.5× in the same run', `${(start / ccStart).toFixed(2)}×`, start <= 0.5 * ccStart);
  report.target('start → first request', '≤ 200 ms (idle machine)', `${start.toFixed(0)} ms`, start <= 200);
  const gap = median('gap: answer done → next request (bash) — teamd');
  report.target('gap per bash turn', 'median ≤ 10 ms', `${gap.toFixed(1)} ms`, gap <= 10);
  const first = median('gap, bash: the first tool turn of a run — teamd');
  const later = median('gap, bash: later turns — teamd');
  report.target('… its first tool turn', 'median ≤ 10 ms', `${first.toFixed(1)} ms`, first <= 10);
  report.target('… its later turns', 'median ≤ 10 ms', `${later.toFixed(1)} ms`, later <= 10);
  const exit = median('last answer → exit — teamd');
  report.target('last answer → exit', 'median ≤ 30 ms', `${exit.toFixed(1)} ms`, exit <= 30);
}

const claude = ensureClaudeCode();
const clients: Client[] = claude.ok ? ['claude', 'teamd'] : ['teamd'];
const report = new BenchReport('peer-claude', 'teamd agent -p next to Claude Code (same fake server, same scripts)', args.quick, {
  rounds: ROUNDS,
  claudeCode: claude.ok ? claude.version : null,
});
if (!claude.ok) report.note(`Claude Code skipped: ${claude.reason}`);
const runs = new Map<string, Run[]>();
let failed = 0;
for (let round = 0; round < ROUNDS; round++) {
  for (const conversation of CONVERSATIONS) {
    for (const client of clients) {
      const run = await runOnce(client, claude.ok ? claude.bin : '', conversation);
      if (!run.ok) failed++;
      const key = `${client}/${conversation.name}`;
      runs.set(key, [...(runs.get(key) ?? []), run]);
    }
  }
  console.log(`round ${round + 1}/${ROUNDS} done`);
}
if (failed) report.note(`${failed} runs did not end as scripted (exit code or request count); their figures are included`);
reportRows(report, runs, clients);
reportTargets(report, clients);
await report.finish();
