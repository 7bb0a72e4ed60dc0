/**
 * asyncRewake in a team (real lead, real worker thread, real hook scripts):
 * a background hook that exits 2 after its teammate went idle wakes the
 * teammate for one turn with the hook's text, as Claude Code wakes an idle
 * session; a result from the hooks of such a woken turn never wakes it again,
 * so a Stop hook that always exits 2 cannot keep a teammate busy.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { genericTaskScript, makeTeamRepo, startLead, teamPerTest, until } from './support/harness.js';
import { tasksOnDisk } from '../faults/support/files.js';

const team = teamPerTest();
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'teamd-rewake-')));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function script(name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

const WOKEN = 'A background hook reported';

it('an asyncRewake result that comes while the teammate is idle starts one turn; a woken turn does not wake again', async () => {
  const gate = join(dir, 'gate');
  // Waits for the test to open the gate (the teammate is idle by then), then reports a blocking error.
  const lint = script('lint.sh', `cat >/dev/null\nwhile [ ! -e ${gate} ]; do sleep 0.05; done\necho "lint: out/t1.txt has a typo" >&2\nexit 2`);
  const check = script('stop-check.sh', 'cat >/dev/null\necho "stop-check: tests failed" >&2\nexit 2');
  const r = team.repo(
    makeTeamRepo({
      script: genericTaskScript([
        { name: 'woken', conversation: WOKEN, times: 'always', content: [{ type: 'text', text: 'Looked at the hook report.' }] },
      ]),
      config: {
        teammates: [{ name: 'ann' }],
        permissions: { defaultMode: 'bypassPermissions' },
        hooks: {
          PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: lint, asyncRewake: true }] }],
          Stop: [{ hooks: [{ type: 'command', command: check, asyncRewake: true }] }],
        },
      },
    }),
  );
  r.writeTask('t1', { subject: 'make t1', description: 'write the file' });
  const { lead, events } = await startLead(r);
  team.lead(lead);
  const notices = (text: string) =>
    events.filter((e) => e.type === 'notice' && e.agent === 'ann' && e.message.includes(text)).length;
  const idle = () => {
    const last = events.filter((e) => e.type === 'teammate_state' && e.agent === 'ann').at(-1);
    return last?.type === 'teammate_state' && last.state === 'idle';
  };

  await until(lead, () => tasksOnDisk(r.dir).get('t1')?.status === 'completed', 40_000, 't1 completed');
  // The task run's Stop hook exits 2 at its end: one woken turn, whose own Stop result does not wake again.
  await until(lead, () => notices('woken by') === 1 && notices('not woken again') === 1 && idle(), 20_000, 'the Stop wake');

  writeFileSync(gate, '');
  await until(lead, () => notices('woken by') === 2 && notices('not woken again') === 2 && idle(), 20_000, 'the lint wake');

  // The woken turns' conversations, from the teammate's transcripts.
  const folder = join(r.dir, '.team', 'state', 'transcripts', 'ann');
  const woken = readdirSync(folder, { withFileTypes: true })
    .filter((f) => f.isFile() && f.name.endsWith('.jsonl'))
    .map((f) => readFileSync(join(folder, f.name), 'utf8'))
    .filter((text) => text.includes(WOKEN));
  expect(woken).toHaveLength(2);
  expect(woken.filter((t) => t.includes('stop-check: tests failed') && !t.includes('lint:'))).toHaveLength(1);
  expect(woken.filter((t) => t.includes('lint: out/t1.txt has a typo'))).toHaveLength(1);
  expect(notices('woken by')).toBe(2);
}, 90_000);
