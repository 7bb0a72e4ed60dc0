import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeAnthropicServer, type ScriptInput } from '../../src/model/index.js';

const run = promisify(execFile);
const CHILD = join(import.meta.dirname, 'fixtures', 'client-loads.ts');
const ANSWER: ScriptInput = { steps: [{ content: [{ type: 'text', text: 'hi' }] }] };

async function loadsOf(...args: string[]): Promise<{ stopReason: string; files: string[] }> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', CHILD, ...args]);
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { stopReason: string; files: string[] };
}

const sdkFiles = (files: string[]): string[] => files.filter((f) => f.startsWith('@anthropic-ai/sdk/'));

describe('the Anthropic SDK is loaded only by a client that calls the API', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'teamd-lazy-sdk-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a scripted client, built from the model barrel as a teammate thread does, loads only the SDK error classes', async () => {
    const script = join(dir, 'script.json');
    await writeFile(script, JSON.stringify(ANSWER));
    const { stopReason, files } = await loadsOf('scripted', script);
    expect(stopReason).toBe('end_turn');
    expect(sdkFiles(files).sort()).toEqual([
      '@anthropic-ai/sdk/core/error.mjs',
      '@anthropic-ai/sdk/internal/errors.mjs',
    ]);
    expect(files.filter((f) => f.startsWith('@opentelemetry/'))).toEqual([]);
  });

  it("an Anthropic client's warm() loads the SDK before any call (a run starts it beside its git processes)", async () => {
    const { stopReason, files } = await loadsOf('anthropic-warm', 'http://127.0.0.1:9');
    expect(stopReason).toBe('none');
    expect(sdkFiles(files)).toContain('@anthropic-ai/sdk/index.mjs');
  });

  it('an Anthropic client loads the SDK for its first call', async () => {
    const server = await startFakeAnthropicServer({ script: ANSWER });
    try {
      const { stopReason, files } = await loadsOf('anthropic', server.url);
      expect(stopReason).toBe('end_turn');
      expect(sdkFiles(files)).toContain('@anthropic-ai/sdk/index.mjs');
      expect(sdkFiles(files).length).toBeGreaterThan(50);
    } finally {
      await server.close();
    }
  });
});
