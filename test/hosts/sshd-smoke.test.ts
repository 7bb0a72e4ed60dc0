import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSshd, type SshdStart } from '../support/sshd.js';

let sshd: SshdStart;
beforeAll(async () => { sshd = await startSshd(); });
afterAll(async () => { if (sshd.ok) await sshd.stop(); });

describe('sshd', () => {
  it('runs', () => {
    if (!sshd.ok) return console.log(sshd.reason);
    const r = spawnSync('ssh', [...sshd.sshOptions, sshd.target, 'id -un; echo $HOME; which node'], { encoding: 'utf8' });
    console.log(r.stdout, r.stderr);
    expect(r.status).toBe(0);
  });
});
