/**
 * `--add-dir` on the real Claude Code CLI and on `teamd agent -p`, the same
 * conversation for both (offline against the fake Messages API): in the
 * default permission mode the model reads a file of a directory beside the
 * repository. With `--add-dir` both read it and both name the directory in the
 * first request; without it both refuse the read.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import type { FakeAnthropicServer } from '../../src/model/fake-server/types.js';
import { claudeCodeEnv, ensureClaudeCode } from '../support/claude-code/install.js';
import { TSX_LOADER } from '../support/race/spawn-ts.js';
import { makeRepo } from './repo.js';
import { runProcess, toolResults, type ProcessRun } from './run.js';

const KEY = 'sk-ant-test-offline';
const MODEL = 'claude-opus-5-5';
const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const claude = ensureClaudeCode();
if (!claude.ok) console.log(`interop --add-dir: skipped: ${claude.reason}`);

let server: FakeAnthropicServer;
let base: string;
let lib: string;
beforeAll(async () => {
  server = await startFakeAnthropicServer({ apiKey: KEY });
  base = mkdtempSync(join(tmpdir(), 'teamd-interop-adddir-'));
  lib = join(base, 'lib');
  mkdirSync(lib);
  writeFileSync(join(lib, 'notes.txt'), 'needle in lib\n');
});
afterAll(async () => {
  await server?.close();
  if (base) rmSync(base, { recursive: true, force: true });
});

interface Ran extends ProcessRun {
  firstRequest: string;
}

async function run(client: 'claude' | 'teamd', addDir: boolean): Promise<Ran> {
  const repo = join(base, `repo-${client}-${String(addDir)}`);
  makeRepo(repo);
  const read = client === 'claude' ? 'Read' : 'read';
  server.setScript({
    steps: [
      { content: [{ type: 'tool_use', name: read, input: { file_path: join(lib, 'notes.txt') } }] },
      { content: [{ type: 'text', text: 'Done.' }] },
    ],
  });
  const before = server.requests.length;
  const home = mkdtempSync(join(base, `home-${client}-`));
  const env = { ...claudeCodeEnv(server.url, home, { ENABLE_TOOL_SEARCH: 'false' }), ANTHROPIC_API_KEY: KEY };
  // the prompt first: --add-dir takes every word after it, as in Claude Code
  const args = ['-p', 'Read the notes.', '--output-format', 'stream-json', '--verbose', '--model', MODEL];
  if (addDir) args.push('--add-dir', lib);
  const ran =
    client === 'claude'
      ? await runProcess((claude as { bin: string }).bin, args, { cwd: repo, env })
      : await runProcess(process.execPath, ['--import', TSX_LOADER, MAIN, 'agent', ...args], { cwd: repo, env });
  const firstRequest = JSON.stringify(server.requests[before]?.body ?? null);
  if (process.env.INTEROP_DUMP) {
    const name = `add-dir-${client}-${String(addDir)}`;
    writeFileSync(join(process.env.INTEROP_DUMP, `${name}-events.jsonl`), ran.stdout);
    writeFileSync(join(process.env.INTEROP_DUMP, `${name}-request.json`), firstRequest);
  }
  return { ...ran, firstRequest };
}

describe.skipIf(!claude.ok)('--add-dir: Claude Code and teamd agent -p', () => {
  const runs: Record<string, Ran> = {};
  beforeAll(async () => {
    for (const client of ['claude', 'teamd'] as const)
      for (const addDir of [true, false]) runs[`${client}:${String(addDir)}`] = await run(client, addDir);
  }, 240_000);

  it('with --add-dir both read the file of the added directory and name the directory to the model', () => {
    for (const client of ['claude', 'teamd']) {
      const ran = runs[`${client}:true`]!;
      expect(ran.code, `${client}: ${ran.stderr}`).toBe(0);
      expect(toolResults(ran), client).toContain('needle in lib');
      expect(ran.firstRequest, client).toContain(lib);
      expect(ran.events.findLast((e) => e.type === 'result'), client).toMatchObject({ is_error: false });
    }
  });

  it('without it both refuse the read', () => {
    for (const client of ['claude', 'teamd']) {
      const ran = runs[`${client}:false`]!;
      expect(toolResults(ran), client).not.toContain('needle in lib');
      expect(toolResults(ran), client).toContain('is_error');
    }
  });
});
