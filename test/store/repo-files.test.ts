/**
 * The user's files a teammate can also write (issue 16): `.claude/settings.json`
 * and `settings.local.json` (hooks), `.mcp.json`, `.claude/agents/*.md`,
 * `CLAUDE.md`/`AGENTS.md`, a model script, a memory file. Each, replaced by a
 * FIFO, a link to /dev/zero, a link to a secret outside the repository, a file
 * over its cap or (for JSON) text nested 5,000 deep, is refused unread: the
 * reader answers at once (no hang, no memory eaten), names the file where it
 * reports problems, and never shows the secret. A link to a file inside the
 * repository (CLAUDE.md → AGENTS.md) is still followed.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readMemory } from '../../src/agent/memory/files.js';
import { loadMcpConfig } from '../../src/agent/mcp/config.js';
import { instructionChain } from '../../src/agent/context/instructions.js';
import { loadRoles } from '../../src/agent/subagents/roles.js';
import { loadHookSettings } from '../../src/hooks/settings.js';
import { loadScript } from '../../src/model/scripted/load.js';
import { mkfifo, SECRET, secretFile } from './hostile-entries.js';

let base: string;
let repo: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'teamd-repo-files-'));
  repo = join(base, 'repo');
  mkdirSync(repo);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

type Hostile = 'fifo' | 'zero' | 'secret' | 'huge' | 'deep';
const HOSTILE: Hostile[] = ['fifo', 'zero', 'secret', 'huge', 'deep'];

function place(kind: Hostile, file: string): void {
  mkdirSync(dirname(file), { recursive: true });
  if (kind === 'fifo') mkfifo(file);
  else if (kind === 'zero') symlinkSync('/dev/zero', file);
  else if (kind === 'secret') symlinkSync(secretFile(join(base, 'outside')), file);
  else if (kind === 'huge') writeFileSync(file, 'x'.repeat(64 * 1024 * 1024 + 1));
  else writeFileSync(file, `{"a":${'['.repeat(5_000)}${']'.repeat(5_000)}}`);
}

/** Each reader: where its file is, and what it reports (its answer, flattened to text). */
const READERS: { name: string; file: string; read: () => Promise<unknown>; names?: RegExp }[] = [
  {
    name: 'hooks settings',
    file: '.claude/settings.json',
    read: () => loadHookSettings(repo),
    names: /\.claude\/settings\.json/,
  },
  {
    name: 'hooks local settings',
    file: '.claude/settings.local.json',
    read: () => loadHookSettings(repo),
    names: /settings\.local\.json/,
  },
  {
    name: '.mcp.json',
    file: '.mcp.json',
    read: () => loadMcpConfig(join(repo, '.mcp.json'), {}),
    names: /\.mcp\.json/,
  },
  { name: 'agent role', file: '.claude/agents/rev.md', read: () => loadRoles(repo), names: /rev\.md/ },
  { name: 'CLAUDE.md', file: 'CLAUDE.md', read: () => instructionChain(repo, repo, ['CLAUDE.md']) },
  {
    name: 'model script',
    file: 'script.json',
    read: () => loadScript(join(repo, 'script.json')),
    names: /script\.json/,
  },
  {
    name: 'memory file',
    file: '.memory/fact.md',
    read: () => readMemory(join(repo, '.memory', 'fact.md')),
    names: /fact\.md/,
  },
];

for (const reader of READERS)
  it(`${reader.name}: a FIFO, /dev/zero, a secret link, a huge file, deep JSON are refused unread`, async () => {
    for (const kind of HOSTILE) {
      if (kind === 'huge' && reader.name === 'model script') continue; // its cap is 64 MiB: the same check
      const file = join(repo, reader.file);
      place(kind, file);
      const shown = JSON.stringify(await reader.read());
      expect(shown, `${reader.name} ${kind}`).not.toContain(SECRET);
      expect(shown, `${reader.name} ${kind}`).not.toContain('\\u0000'.repeat(8));
      if (reader.names && kind !== 'deep') expect(shown, `${reader.name} ${kind}`).toMatch(reader.names);
      if (reader.name === 'CLAUDE.md' && kind !== 'deep') expect(shown).toBe('[]'); // deep brackets are fine markdown
      rmSync(file, { force: true });
    }
  }, 30_000);

it('a link to a file inside the repository is still followed (CLAUDE.md → AGENTS.md)', async () => {
  writeFileSync(join(repo, 'AGENTS.md'), 'use tabs\n');
  symlinkSync('AGENTS.md', join(repo, 'CLAUDE.md'));
  expect(await instructionChain(repo, repo, ['CLAUDE.md'])).toEqual([
    { path: 'CLAUDE.md', text: 'use tabs' },
  ]);
});
