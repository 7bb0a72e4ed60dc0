import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyCommand } from '../../src/tools/bash-classify.js';
import { readOnlyVerdict } from '../../src/tools/bash-read-only.js';
import { ALLOWED, ESCAPES } from './bash-escapes.corpus.js';

const place = { root: '/repo', cwd: '/repo' };

describe('read-only classifier: escapes are not read-only', () => {
  for (const [family, commands] of Object.entries(ESCAPES)) {
    it.each(commands)(`${family}: %s`, (cmd) => {
      expect(readOnlyVerdict(cmd, place)).toMatchObject({ ok: false });
      expect(classifyCommand(cmd, place).readOnly).toBe(false);
    });
  }
});

describe('read-only classifier: ordinary commands stay read-only', () => {
  it.each(ALLOWED)('%s', (cmd) => {
    expect(readOnlyVerdict(cmd, place)).toEqual({ ok: true });
  });
});
