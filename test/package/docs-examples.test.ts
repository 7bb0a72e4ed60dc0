/**
 * The library examples of README.md and docs/LIBRARY.md, run against the
 * sources (imports of `teamd` pointed at src/). The packed, installed and
 * type-checked variant is test/faults/full/package-install.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { againstSources, docExamples } from './support/examples.js';

const dir = mkdtempSync(join(tmpdir(), 'teamd-doc-examples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const examples = docExamples();

describe('the library examples of the docs', () => {
  test('there are examples for the runtime, the team API, the stores and the model layer', () => {
    const all = examples.map((e) => e.code).join('\n');
    for (const name of ['new AgentRuntime', 'Team.open', 'TaskStore.inMemory', 'MemoryMailbox', 'startFakeAnthropicServer', 'OptionsError'])
      expect(all).toContain(name);
  });

  test.each(examples.map((e, i) => [e.where, e, i] as const))('%s runs', async (_where, example, i) => {
    const file = join(dir, `example-${i}.ts`);
    writeFileSync(file, againstSources(example.code));
    await import(file); // its own asserts are the test
  });
});
