/**
 * Two builds of teamd `agent -p` on the same scripted conversation (bash in
 * 3 turns: a first gap and a second gap per run), interleaved A B A B … so
 * both see the same load: start → first request, gap 1 (the first tool
 * turn: first-time work on the response path), gap 2, and last answer →
 * exit, as medians with ranges, measured at bench/peer-claude's timing
 * proxy. A build is a folder holding `dist/` (and `node_modules/`, linked,
 * for a copy of another checkout's build).
 *
 *   npx tsx bench/peer-claude/gap-compare.ts --before /tmp/x/before --after . [--rounds 12] [--node-arg --cpu-prof …]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import { stats } from '../support/stats.js';
import { CONVERSATIONS, scriptFor } from './conversations.js';
import { TimingProxy } from './proxy.js';

const API_KEY = 'sk-ant-test-offline';

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1]! : fallback;
}
const THINK_MS = Number(option('--think', '0'));
const nodeArgs = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--node-arg' ? [a] : []));

interface Sample {
  start: number;
  gaps: number[];
  exit: number;
  requests: number;
}

const conversation = CONVERSATIONS.find((c) => c.name === option('--conversation', 'bash, 3 turns'))!;

/** `--before-env K=V` / `--after-env K=V`: variables for one side's runs (a switch of the same build). */
const sideEnv = (side: string): Record<string, string> =>
  Object.fromEntries(process.argv.flatMap((a, i) => (process.argv[i - 1] === `--${side}-env` ? [[a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] as [string, string]] : [])));

async function runOnce(build: string, side: string): Promise<Sample> {
  const cwd = mkdtempSync(join(tmpdir(), 'teamd-gap-'));
  const script = scriptFor(conversation, 'teamd', cwd);
  // `--think <ms>`: each answer comes this late (a real model's time to its first token; the fake answers at once)
  script.steps = script.steps.map((step) => ({ ...(step as object), delayMs: THINK_MS }));
  const server = await startFakeAnthropicServer({ apiKey: API_KEY, script: script as never });
  const proxy = await new TimingProxy(server.url).listen();
  try {
    const main = join(build, 'dist', 'cli', 'main.js');
    const argv = [...nodeArgs, main, 'agent', '-p', '--output-format', 'stream-json', '--permission-mode', 'bypassPermissions', conversation.prompt];
    const env = { PATH: process.env.PATH, HOME: cwd, ANTHROPIC_BASE_URL: proxy.url, ANTHROPIC_API_KEY: API_KEY, ...marksEnv(), ...sideEnv(side) };
    const began = performance.now();
    const child = spawn(process.execPath, argv, { cwd, env, stdio: ['ignore', 'ignore', 'inherit'] });
    await new Promise((done) => child.on('exit', done));
    const ended = performance.now();
    const ex = proxy.exchanges;
    if (process.env.TEAMD_GAP_MARKS) console.error(`PROXY ${JSON.stringify(ex.map((e) => [e.receivedAt + performance.timeOrigin, e.doneAt + performance.timeOrigin]))}`);
    return {
      start: ex[0] ? ex[0].receivedAt - began : NaN,
      gaps: ex.slice(1).map((e, i) => e.receivedAt - ex[i]!.doneAt),
      exit: ex.length ? ended - ex.at(-1)!.doneAt : NaN,
      requests: ex.length,
    };
  } finally {
    await proxy[Symbol.asyncDispose]();
    await server[Symbol.asyncDispose]();
    rmSync(cwd, { recursive: true, force: true });
  }
}

const marksEnv = (): Record<string, string> => (process.env.TEAMD_GAP_MARKS ? { TEAMD_GAP_MARKS: process.env.TEAMD_GAP_MARKS } : {});

const fmt = (values: number[]): string => {
  const s = stats(values.filter((v) => !Number.isNaN(v)));
  return `${s.median.toFixed(1)} (${s.min.toFixed(1)}–${s.max.toFixed(1)})`;
};

const builds = { before: resolve(option('--before', '.')), after: resolve(option('--after', '.')) };
const rounds = Number(option('--rounds', '12'));
const samples: Record<keyof typeof builds, Sample[]> = { before: [], after: [] };
for (const name of ['before', 'after'] as const) await runOnce(builds[name], name); // writes each code cache
const ORDERS: (keyof typeof builds)[][] = [['before', 'after'], ['after', 'before']];
for (let round = 0; round < rounds; round++)
  for (const name of ORDERS[round % 2]!) samples[name].push(await runOnce(builds[name], name));

console.log(`${conversation.name}, ${rounds} rounds interleaved, answers after ${THINK_MS} ms; ms, median (min–max)`);
console.log(['build', 'start → 1st request', 'gap 1', 'gap 2', 'last answer → exit', 'requests'].join(' | '));
for (const name of ['before', 'after'] as const) {
  const s = samples[name];
  const gap = (i: number) => s.map((x) => x.gaps[i] ?? NaN);
  const requests = [...new Set(s.map((x) => x.requests))].join('/');
  console.log([name, fmt(s.map((x) => x.start)), fmt(gap(0)), fmt(gap(1)), fmt(s.map((x) => x.exit)), requests].join(' | '));
}
