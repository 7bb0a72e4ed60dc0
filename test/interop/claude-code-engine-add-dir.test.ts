/**
 * The `claude-code` engine passes a teammate's additional directories to the
 * real Claude Code CLI (`--add-dir`, pinned, offline against the fake
 * Messages API; skipped with one line when it cannot be installed): with
 * `permissions.additionalDirectories` in its config, the CLI reads a file of
 * a directory beside the repository without asking, as `claude -p --add-dir`
 * does. `npm run test:interop`.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ScriptInput } from '../../src/model/scripted/schema.js';
import { listRequests } from '../../src/teammate/requests.js';
import { makeTeamRepo, startLead, teamPerTest, until } from '../e2e/support/harness.js';
import { tasksOnDisk } from '../faults/support/files.js';
import { useFakeEndpoint } from '../support/fake-endpoint.js';
import { claudeCodeEnv, ensureClaudeCode } from '../support/claude-code/install.js';

const claude = ensureClaudeCode();
if (!claude.ok) console.log(`claude-code engine --add-dir: skipped: ${claude.reason}`);
const base = realpathSync(mkdtempSync(join(tmpdir(), 'teamd-cc-adddir-')));
const lib = join(base, 'lib');
mkdirSync(lib);
writeFileSync(join(lib, 'notes.txt'), 'needle in lib\n');
afterAll(() => rmSync(base, { recursive: true, force: true }));

const team = teamPerTest();
const endpoint = useFakeEndpoint();

const script = (wt: string): ScriptInput => ({
  rules: [
    { conversation: 'Task t1:', turn: 0, content: [{ type: 'tool_use', name: 'Read', input: { file_path: join(lib, 'notes.txt') } }] },
    { conversation: 'Task t1:', turn: 1, content: [{ type: 'tool_use', name: 'Write', input: { file_path: join(wt, 'out/t1.txt'), content: 'read the notes\n' } }] },
    { conversation: 'Task t1:', turn: 2, content: [{ type: 'text', text: 'read the notes, wrote out/t1.txt' }] },
    { conversation: 'You have new messages', times: 'always', content: [{ type: 'text', text: 'Noted.' }] },
  ],
});

describe.skipIf(!claude.ok)('engine claude-code: --add-dir', () => {
  it("a teammate's permissions.additionalDirectories reach the CLI: it reads the added directory's file without an ask", async () => {
    const server = await endpoint.start({ apiKey: 'test-key', script: { rules: [] } });
    const env = claudeCodeEnv(server.url, join(base, 'home'), { ANTHROPIC_API_KEY: 'test-key', ENABLE_TOOL_SEARCH: 'false' });
    delete env['PATH'];
    mkdirSync(join(base, 'home'), { recursive: true });
    const permissions = { defaultMode: 'acceptEdits', allow: [], deny: [], ask: [], additionalDirectories: [lib] };
    const r = team.repo(
      makeTeamRepo({
        script: { rules: [] },
        config: {
          // without the directory the Read is an ask: a short wait turns it into a refusal
          approvalTimeoutMs: 5_000,
          teammates: [{ name: 'cc', engine: 'claude-code', model: 'claude-opus-5-5', permissions, maxTurns: 6 }],
          claudeCode: { bin: claude.ok ? claude.bin : 'claude', env: env as Record<string, string> },
        },
      }),
    );
    server.setScript(script(join(r.dir, '.worktrees', 't1')));
    r.writeTask('t1', { subject: 'cc reads the notes', owner: 'cc' });
    const { lead } = await startLead(r);
    team.lead(lead);
    await until(lead, () => tasksOnDisk(r.dir).get('t1')?.status === 'completed', 120_000, 't1 completed');

    const sent = JSON.stringify(server.requests.map((q) => q.body));
    expect(sent).toContain('needle in lib');
    expect(listRequests(r.dir).filter((q) => q.agent === 'cc')).toEqual([]);
    expect(r.git('show', 'teamd/integration:out/t1.txt')).toBe('read the notes\n');
  }, 180_000);
});
