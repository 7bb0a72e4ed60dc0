/**
 * Every command example in README.md and docs/*.md is run, so the docs cannot
 * drift from the CLI again: each ```sh block's `teamd …` lines run in order
 * in a fresh git repository (after `teamd init`, with a copy of examples/),
 * through bash and a `teamd` on PATH that runs the CLI (test/support/teamd-cli.ts), with no API
 * key, and must exit 0. Lines that cannot run here are in
 * docs-examples.skip.json with the reason. Each ```json block that is a
 * script (`steps` or `rules`) must load, and may only call real tools with
 * input of their shape.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmod, cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScript } from '../../src/model/scripted/load.js';
import { toolCallProblem } from '../../src/model/scripted/tool-check.js';
import { cronTools } from '../../src/tools/cron/index.js';
import { builtinTools, toolDefinition } from '../../src/tools/index.js';
import { teamTools } from '../../src/teammate/tools/index.js';
import { teamdArgs } from '../support/teamd-cli.js';
import { docBlocks, docCommands, type DocCommand } from './support/doc-blocks.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface SkipEntry {
  command: string;
  why: string;
  expect?: string;
}
const SKIPS = (
  JSON.parse(await readFile(new URL('./docs-examples.skip.json', import.meta.url), 'utf8')) as {
    lines: SkipEntry[];
  }
).lines;

const docFiles = async (): Promise<string[]> => [
  'README.md',
  ...(await readdir(join(ROOT, 'docs')))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

let bin: string;
beforeAll(async () => {
  bin = await mkdtemp(join(tmpdir(), 'teamd-docs-bin-'));
  const shim = join(bin, 'teamd');
  await writeFile(
    shim,
    `#!/bin/sh\nexec ${[process.execPath, ...teamdArgs()].map((a) => JSON.stringify(a)).join(' ')} "$@"\n`,
  );
  await chmod(shim, 0o755);
});
afterAll(async () => {
  await rm(bin, { recursive: true, force: true });
});

/** A git repository with one commit, `teamd init` done, and examples/ copied in (docs name paths in a teamd checkout). */
async function freshRepo(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'teamd-docs-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  await writeFile(join(dir, 'README.md'), '# a repository for the docs examples\n');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
  await cp(join(ROOT, 'examples'), join(dir, 'examples'), { recursive: true });
  await run('teamd init', dir);
  return dir;
}

interface LineRun {
  code: number;
  stdout: string;
  stderr: string;
}

function run(line: string, cwd: string): Promise<LineRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, NO_COLOR: '1' };
  delete env.ANTHROPIC_API_KEY;
  delete env.ANTHROPIC_BASE_URL;
  delete env.ANTHROPIC_AUTH_TOKEN;
  return new Promise((resolve) => {
    const child = execFile('bash', ['-c', line], { cwd, env, timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

/** Lines that would leave a daemon running or run a whole team: never run, they must be skipped with a reason. */
const NEVER_RUN = /(^|[|;&]\s*)teamd (start|run|demo|web)\b|teamd logs .*(-f|--follow)\b/;

async function check(cmd: DocCommand, cwd: string, used: Set<SkipEntry>): Promise<string | undefined> {
  const skip = SKIPS.find((s) => s.command === cmd.command);
  if (skip) used.add(skip);
  if (skip && skip.expect === undefined) return undefined;
  const where = `${cmd.file}:${cmd.lineNo}: ${cmd.command}`;
  if (NEVER_RUN.test(cmd.command))
    return `${where}\n  starts a daemon, a team or a follow: add it to test/cli/docs-examples.skip.json with why`;
  const result = await run(cmd.line, cwd);
  if (skip?.expect !== undefined)
    return (result.stderr + result.stdout).includes(skip.expect)
      ? undefined
      : `${where}\n  expected its output to contain ${JSON.stringify(skip.expect)}, got: ${result.stderr}${result.stdout}`;
  return result.code === 0
    ? undefined
    : `${where}\n  exit ${result.code}: ${result.stderr.trim() || result.stdout.trim()}`;
}

describe('the docs examples', () => {
  it('every teamd command line of every sh block runs (or is skipped, with a reason)', async () => {
    const blocks = (
      await Promise.all(
        (await docFiles()).map(async (f) => docCommands(f, await readFile(join(ROOT, f), 'utf8'))),
      )
    ).flat();
    expect(blocks.length).toBeGreaterThan(3);
    const used = new Set<SkipEntry>();
    // Blocks in parallel (each in its own repository), lines of one block in order.
    const failures = await Promise.all(
      blocks.map(async (commands) => {
        const repo = await freshRepo();
        try {
          const out: string[] = [];
          for (const cmd of commands) {
            const failure = await check(cmd, repo, used);
            if (failure) out.push(failure);
          }
          return out;
        } finally {
          await rm(repo, { recursive: true, force: true });
        }
      }),
    );
    expect(failures.flat()).toEqual([]);
    expect(SKIPS.filter((s) => !used.has(s)).map((s) => `stale skip entry: ${s.command}`)).toEqual([]);
  }, 180_000);

  it('every json block that is a script loads and calls only real tools with input of their shape', async () => {
    const tools = [...builtinTools(), ...teamTools('plan'), ...cronTools].map(
      toolDefinition,
    );
    const problems: string[] = [];
    let scripts = 0;
    for (const file of await docFiles()) {
      for (const block of docBlocks(await readFile(join(ROOT, file), 'utf8'), 'json')) {
        const raw = JSON.parse(block.text) as Record<string, unknown>;
        if (!('steps' in raw) && !('rules' in raw)) continue;
        scripts++;
        problems.push(...scriptProblems(raw, `${file}:${block.lineNo}`, tools));
      }
    }
    const example = 'examples/demo-script.json';
    problems.push(...scriptProblems(JSON.parse(await readFile(join(ROOT, example), 'utf8')), example, tools));
    expect(scripts).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
});

function scriptProblems(raw: unknown, where: string, tools: ReturnType<typeof toolDefinition>[]): string[] {
  const parsed = parseScript(raw, where);
  if (!parsed.ok) return [parsed.error];
  const entries = [
    ...parsed.value.rules.map((e, i) => [`rules[${i}]`, e] as const),
    ...parsed.value.steps.map((e, i) => [`steps[${i}]`, e] as const),
  ];
  return entries.flatMap(([label, e]) => {
    const content = e.content.map((b) => (b.type === 'tool_use' ? { ...b, id: b.id ?? 'x' } : b));
    const problem = toolCallProblem(content, tools, `${where} ${label}`);
    return problem ? [problem] : [];
  });
}
