// A lead killed outright (SIGKILL) over ssh teammates: no goodbye, no clean-up session. The ssh
// clients see their stdin end, the remote teammates see theirs end and stop, and the command one of
// them was running mid-task ends with it: nothing of the team is left running on the remote, and
// no ssh client is left on the lead's side.
import { expect, it } from 'vitest';
import { spawnCli } from '../e2e/support/cli.js';
import { makeTeamRepo, teamPerTest } from '../e2e/support/harness.js';
import { waitFor } from '../store/temp-repo.js';
import { processesOf, processesUnder } from '../support/remote-user.js';
import { sshServerPerFile } from './support/ssh-team.js';

const team = teamPerTest();
const server = sshServerPerFile('killed');

it('teamd start --host ssh, then a SIGKILL of the lead mid-task: nothing is left on the remote', async (ctx) => {
  const { sshd, remote } = server;
  if (!sshd.ok) return ctx.skip(sshd.reason);
  const nap = `sleep ${70 + (process.pid % 89)}`;
  const script = { rules: [{ conversation: 'Task t1:', turn: 0, times: 'always' as const, content: [{ type: 'tool_use' as const, name: 'bash', input: { command: nap } }] }] };
  const repo = team.repo(makeTeamRepo({ script, config: { host: remote.host, teammates: [{ name: 'ann' }, { name: 'bob' }], permissions: { defaultMode: 'bypassPermissions' } } }));
  repo.writeTask('t1', { subject: 'a long command' });
  const lead = spawnCli(['start', '--foreground', '--host', 'ssh', '--dir', repo.dir]);
  try {
    const user = sshd.user.name;
    await waitFor(() => processesUnder(user, remote.remoteDir).some((p) => p.includes(nap)), 'the command to run on the remote', 60_000);
    expect(processesUnder(user, remote.remoteDir).filter((p) => p.includes('stdio-main')).length).toBe(2);
    const clients = () => processesOf('root').filter((p) => p.includes(String(remote.host.remoteDir)) && p.includes(' ssh '));
    expect(clients().length).toBe(2);
    lead.child.kill('SIGKILL');
    await lead.exited;
    await waitFor(() => processesUnder(user, remote.remoteDir).length === 0, 'every remote process of the team to end', 20_000);
    await waitFor(() => clients().length === 0, 'the lead\'s ssh clients to end', 10_000);
  } finally {
    if (lead.child.exitCode === null && lead.child.signalCode === null) lead.child.kill('SIGKILL');
  }
}, 90_000);
