/** `teamd mcp`'s flags: bad ones are one `teamd: error:` line naming the flag, exit 1, nothing served. */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../e2e/support/cli.js';
import { makeMcpRepo, type McpRepo } from './support.js';

let repo: McpRepo;
beforeAll(() => {
  repo = makeMcpRepo();
});
afterAll(() => repo?.cleanup());

async function fails(args: string[]): Promise<string> {
  const run = spawnCli(['mcp', '--dir', repo.dir, ...args]);
  expect(await run.exited).toBe(1);
  return run.output();
}

describe('teamd mcp flags', () => {
  it('refuses a bad --as, a stray --port and a bad port, naming the flag', async () => {
    const [as, stray, port] = await Promise.all([fails(['--as', '../lead']), fails(['--port', '80']), fails(['--http', '--port', '99999'])]);
    expect(as).toMatch(/^teamd: error: --as: invalid agent name "\.\.\/lead"/m);
    expect(stray).toMatch(/^teamd: error: --port: only with --http/m);
    expect(port).toMatch(/^teamd: error: --port: must be a port number/m);
  });

  it('a port in use is an error naming --port', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as AddressInfo;
      expect(await fails(['--http', '--port', String(port)])).toMatch(/^teamd: error: --port: .*EADDRINUSE/m);
    } finally {
      taken.close();
    }
  });
});
