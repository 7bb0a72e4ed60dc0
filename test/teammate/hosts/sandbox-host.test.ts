import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TeamConfigSchema } from '../../../src/config/schema.js';
import { hostsFor } from '../../../src/lead/hosted.js';
import { resolveTeamConfig } from '../../../src/lead/team-config.js';
import { makeSandboxHost, sandboxArgs } from '../../../src/teammate/hosts/sandbox.js';

let dir = '';
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));
const repo = () => (dir = mkdtempSync(join(tmpdir(), 'teamd-sandbox-args-')));
const config = { kind: 'sandbox' as const, readOnly: [], writable: [], network: false };

describe('the sandbox host', () => {
  it('without bubblewrap: an error that names what to install and which host to use instead', () => {
    const made = makeSandboxHost(config, repo(), null);
    expect(made.ok).toBe(false);
    if (made.ok) return;
    expect(made.error).toMatch(/bubblewrap/);
    expect(made.error).toMatch(/apt-get install bubblewrap/);
    expect(made.error).toMatch(/host "process"/);
  });

  it('a bwrap that cannot make a sandbox is refused at start, with its own words', () => {
    const made = makeSandboxHost(config, repo(), '/bin/false');
    expect(made.ok || made.error).toMatch(/cannot make a sandbox here/);
  });

  it('lays the mounts out so a later one covers an earlier: state hidden after the repository, only the granted worktree writable', () => {
    const root = repo();
    mkdirSync(join(root, 'cache'));
    const args = sandboxArgs({ ...config, readOnly: ['cache', '/nonexistent-path'], writable: ['cache'], repoRoot: root, name: 'ann', home: '/home/x', inner: { file: '/usr/bin/node', args: ['e.js'] } });
    const at = (...seq: string[]) => args.findIndex((_, i) => seq.every((s, k) => args[i + k] === s));
    expect(at('--unshare-all')).toBeGreaterThan(-1);
    expect(args).not.toContain('--share-net');
    expect(at('--tmpfs', '/home/x')).toBeGreaterThan(at('--ro-bind', '/', '/'));
    expect(at('--ro-bind', root, root)).toBeGreaterThan(at('--tmpfs', '/tmp'));
    expect(at('--tmpfs', join(root, '.team', 'state'))).toBeGreaterThan(at('--ro-bind', root, root));
    const transcripts = join(root, '.team', 'state', 'transcripts', 'ann');
    expect(args).not.toContain(transcripts); // the lead writes transcripts (hosts/transcript-client.ts)
    expect(args).not.toContain(join(root, '.worktrees')); // none granted yet: all of .worktrees/ read-only
    const wt = join(root, '.worktrees', 'box');
    const granted = sandboxArgs({ ...config, repoRoot: root, name: 'ann', home: '/home/x', inner: { file: '/usr/bin/node', args: [] }, worktree: wt });
    const gat = (...seq: string[]) => granted.findIndex((_, i) => seq.every((s, k) => granted[i + k] === s));
    expect(gat('--bind', wt, wt)).toBeGreaterThan(gat('--ro-bind', root, root));
    const binNode = sandboxArgs({ ...config, repoRoot: root, name: 'ann', home: '/home/x', inner: { file: '/bin/node', args: [] } });
    expect(binNode.filter((a, i) => a === '--ro-bind' && binNode[i + 1] === '/')).toHaveLength(1); // / again would cover /dev, /proc, /tmp
    expect(granted.filter((a) => a.startsWith(join(root, '.worktrees')))).toEqual([wt, wt]);
    expect(at('--bind', join(root, 'cache'), join(root, 'cache'))).toBeGreaterThan(at('--ro-bind', join(root, 'cache'), join(root, 'cache')));
    expect(args).not.toContain('/nonexistent-path');
    expect(args.slice(-3)).toEqual(['--', '/usr/bin/node', 'e.js']);
    mkdirSync(join(root, 'home', '.cache'), { recursive: true });
    const tilde = sandboxArgs({ ...config, writable: ['~/.cache'], repoRoot: root, name: 'ann', home: join(root, 'home'), inner: { file: '/usr/bin/node', args: [] } });
    expect(tilde.join(' ')).toContain(`--bind ${join(root, 'home', '.cache')} ${join(root, 'home', '.cache')}`);
    expect(sandboxArgs({ ...config, network: true, repoRoot: root, name: 'ann', home: '/home/x', inner: { file: '/usr/bin/node', args: [] } })).toContain('--share-net');
  });
});

describe('choosing a host', () => {
  it('a sandbox without worktrees is refused at start: it could write nothing', () => {
    const team = TeamConfigSchema.parse({ host: { kind: 'sandbox' }, worktrees: { mode: 'off' }, teammates: [{ name: 'ann' }] });
    const hosts = hostsFor(team, repo());
    expect(hosts.ok || hosts.error).toMatch(/teammate ann: host "sandbox" needs worktrees/);
    expect(hostsFor({ ...team, host: { kind: 'process' } }, dir).ok).toBe(true);
  });

  it('--host sets every teammate\'s host; an unknown kind is refused naming the flag', async () => {
    const root = repo();
    mkdirSync(join(root, '.team'));
    writeFileSync(join(root, '.team', 'config.json'), JSON.stringify({ teammates: [{ name: 'ann', host: { kind: 'thread' } }] }));
    const set = await resolveTeamConfig(root, { host: 'process' });
    expect(set.ok && [set.config.host, set.config.teammates[0]!.host]).toEqual([{ kind: 'process' }, undefined]);
    const bad = await resolveTeamConfig(root, { host: 'docker' as never });
    expect(bad.ok || bad.error).toMatch(/--host: "docker" is not a host kind/);
  });

  it('a bad host in the config names the file and the field', async () => {
    const root = repo();
    mkdirSync(join(root, '.team'));
    writeFileSync(join(root, '.team', 'config.json'), JSON.stringify({ host: { kind: 'sandbox', network: 'yes' } }));
    const r = await resolveTeamConfig(root, {});
    expect(r.ok || r.error).toMatch(/config\.json.*host.*network|host\.network/s);
  });
});
