// The ssh host's command lines and scripts, without a server: every value reaches the remote shell as
// the same bytes (generated strings through a real sh), and a config can name no option or second command.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HostConfigSchema } from '../../src/config/schema.js';
import { resolveTeamConfig } from '../../src/lead/team-config.js';
import { remoteRoot, shellQuote, sshArgv } from '../../src/teammate/hosts/ssh/argv.js';
import { branchSlug } from '../../src/teammate/hosts/ssh/scripts.js';
import { SshHostConfigSchema } from '../../src/teammate/hosts/ssh/types.js';

const sh = (script: string, env: Record<string, string> = {}) =>
  execFileSync('sh', ['-c', script], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env } });
/** Text without NUL (argv cannot carry it). */
const text = fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\0'));

describe('ssh host: quoting', () => {
  it('a quoted word is the same bytes in sh, whatever it holds', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), (words) => {
        const out = sh(`printf '%s\\0' ${words.map(shellQuote).join(' ')}`);
        expect(out).toBe(words.map((w) => `${w}\0`).join(''));
      }),
      { numRuns: 60 },
    );
  });

  it('the remote command is one sh -c word that runs the script as written (the login shell sees one word)', () => {
    fc.assert(
      fc.property(text, (value) => {
        const config = SshHostConfigSchema.parse({ kind: 'ssh', target: 'u@h' });
        const remoteCommand = sshArgv(config, `printf '%s' ${shellQuote(value)}`).at(-1)!;
        expect(sh(remoteCommand)).toBe(value); // what sshd's `$SHELL -c <command>` does
      }),
      { numRuns: 60 },
    );
  });

  it('the remote folder is under $HOME unless absolute, quoted as given', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 20 }).filter((d) => SshHostConfigSchema.shape.remoteDir.safeParse(d).success), (dir) => {
        const config = SshHostConfigSchema.parse({ kind: 'ssh', target: 'h', remoteDir: dir });
        const printed = sh(`printf '%s' ${remoteRoot(config, 'team-1')}`, { HOME: '/home/x' });
        expect(printed).toBe(`${dir.startsWith('/') ? dir : `/home/x/${dir}`}/team-1`);
      }),
      { numRuns: 60 },
    );
  });

  it('distinct branches get distinct worktree folders of safe characters', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(branchSlug(a)).toMatch(/^[A-Za-z0-9._-]+$/);
        if (a !== b) expect(branchSlug(a)).not.toBe(branchSlug(b));
      }),
    );
  });
});

describe('ssh host: config', () => {
  it('defaults: remoteDir, teamdBin, timeouts; the command line asks nothing and checks the host key', () => {
    const config = SshHostConfigSchema.parse({ kind: 'ssh', target: 'dev@build-1', port: 2222, identity: '/k/id', knownHosts: '/k/kh' });
    expect(config).toMatchObject({ remoteDir: '.teamd-remote', teamdBin: 'teamd', connectTimeoutS: 10, serverAliveIntervalS: 15 });
    const argv = sshArgv(config, 'true');
    for (const option of ['BatchMode=yes', 'StrictHostKeyChecking=yes', 'ConnectTimeout=10', 'ServerAliveInterval=15', 'IdentitiesOnly=yes', 'UserKnownHostsFile=/k/kh'])
      expect(argv).toContain(option);
    expect(argv.slice(argv.indexOf('--') + 1, -1)).toEqual(['dev@build-1']);
    expect(argv).toEqual(expect.arrayContaining(['-p', '2222', '-i', '/k/id', '-T']));
  });

  it('refuses a target that is an option or carries a command, and names the field', () => {
    for (const target of ['-oProxyCommand=touch /tmp/x', 'u@h;reboot', 'u@h cmd', 'u@$(id)', '', 'u@', '@h', 'a\nb']) {
      const parsed = HostConfigSchema.safeParse({ kind: 'ssh', target });
      expect(parsed.success, target).toBe(false);
      if (!parsed.success) expect(parsed.error.issues[0]!.path).toEqual(['target']);
    }
    for (const target of ['h', 'build-1.example.com', 'dev@10.0.0.7', 'dev@[::1]', 'a_b@host_1'])
      expect(HostConfigSchema.safeParse({ kind: 'ssh', target }).success, target).toBe(true);
  });

  it('refuses unknown keys, a port out of range, ".." in remoteDir, a multi-line teamdBin', () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ user: 'x' }, ''],
      [{ port: 0 }, 'port'],
      [{ port: 70000 }, 'port'],
      [{ remoteDir: '../elsewhere' }, 'remoteDir'],
      [{ remoteDir: 'a/../../b' }, 'remoteDir'],
      [{ teamdBin: 'teamd\nrm -rf ~' }, 'teamdBin'],
      [{ identity: '' }, 'identity'],
    ];
    for (const [extra, field] of bad) {
      const parsed = HostConfigSchema.safeParse({ kind: 'ssh', target: 'h', ...extra });
      expect(parsed.success, JSON.stringify(extra)).toBe(false);
      if (!parsed.success && field) expect(parsed.error.issues[0]!.path).toEqual([field]);
    }
  });
});

describe('ssh host: teamd start --host ssh', () => {
  const withConfig = async (config: object, run: (root: string) => Promise<void>) => {
    const root = mkdtempSync(join(tmpdir(), 'teamd-ssh-config-'));
    try {
      mkdirSync(join(root, '.team'));
      writeFileSync(join(root, '.team', 'config.json'), JSON.stringify(config));
      await run(root);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };

  it('keeps each teammate\'s own ssh machine (a pool), and the team\'s when it has one', async () => {
    const pool = { teammates: [{ name: 'ann', host: { kind: 'ssh', target: 'b@one' } }, { name: 'bob', host: { kind: 'ssh', target: 'b@two' } }] };
    await withConfig(pool, async (root) => {
      const r = await resolveTeamConfig(root, { host: 'ssh' });
      if (!r.ok) throw new Error(r.error);
      expect(r.config.teammates.map((t) => (t.host?.kind === 'ssh' ? t.host.target : null))).toEqual(['b@one', 'b@two']);
    });
    await withConfig({ host: { kind: 'ssh', target: 'b@all' }, teammates: [{ name: 'ann', host: { kind: 'thread' } }] }, async (root) => {
      const r = await resolveTeamConfig(root, { host: 'ssh' });
      expect(r.ok && [r.config.host, r.config.teammates[0]!.host]).toEqual([expect.objectContaining({ target: 'b@all' }), undefined]);
    });
  });

  it('without ssh settings it is refused, saying where they go and who lacks them', async () => {
    await withConfig({ teammates: [{ name: 'ann', host: { kind: 'ssh', target: 'b@one' } }, { name: 'bob' }] }, async (root) => {
      const r = await resolveTeamConfig(root, { host: 'ssh' });
      expect(r.ok || r.error).toMatch(/^--host ssh: the "ssh" host needs settings .*\.team\/config\.json.*missing for bob.*target/s);
    });
  });
});
