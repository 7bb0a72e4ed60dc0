import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { tempDir } from '../support/workspace.js';

const run = promisify(execFile);
const CHILD = join(import.meta.dirname, 'fixtures', 'mcp-loads.ts');

async function loadsIn(root: string): Promise<{ problems: string[]; mcpFiles: string[] }> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', CHILD, root]);
  const { problems, files } = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    problems: string[];
    files: string[];
  };
  return { problems, mcpFiles: files.filter((f) => f.startsWith('@modelcontextprotocol/')) };
}

describe('the MCP SDK is loaded only when there is a server to start', () => {
  test('no .mcp.json: no MCP module is loaded', async () => {
    await using dir = await tempDir();
    expect(await loadsIn(dir.path)).toEqual({ problems: [], mcpFiles: [] });
  });

  test('a configured server: the SDK is loaded to start it (even when it fails)', async () => {
    await using dir = await tempDir();
    const config = { mcpServers: { missing: { command: join(dir.path, 'no-such-server') } } };
    await writeFile(join(dir.path, '.mcp.json'), JSON.stringify(config));
    const { problems, mcpFiles } = await loadsIn(dir.path);
    expect(problems).toEqual([expect.stringMatching(/^MCP server "missing" failed to start/)]);
    expect(mcpFiles).toContain('@modelcontextprotocol/sdk/dist/esm/client/index.js');
  });
});
