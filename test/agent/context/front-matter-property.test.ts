import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseFrontMatter } from '../../../src/agent/context/front-matter.js';
import { parseRoleFile } from '../../../src/agent/subagents/role-file.js';

const yamlish = fc.stringMatching(/^[\w :#"'[\]{}|>&*!%@`,.\-\\\n\r\t\u00e9\u65e5]*$/);

describe('front matter parser, adversarial', () => {
  test('never throws; a failure is an error naming the file', () => {
    fc.assert(
      fc.property(yamlish, fc.string(), (front, body) => {
        const text = `---\n${front}\n---\n${body}`;
        const doc = parseFrontMatter(text, 'x.md');
        if (!doc.ok) expect(doc.error).toMatch(/^x\.md(:\d+)?: /);
        const role = parseRoleFile(text, 'r.md');
        if (!role.ok) expect(role.error).toMatch(/^r\.md(:\d+)?: /);
      }),
      { numRuns: 400 },
    );
  });

  test('any string value written quoted or plain reads back as that text', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => s.trim() === s && !s.includes('\n')),
        (value) => {
          const doc = parseFrontMatter(`---\ndescription: ${JSON.stringify(value)}\n---\nbody`, 'q.md');
          expect(doc.ok && doc.value.data.description).toBe(value);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('alias bombs and hostile YAML are named errors, not hangs or throws', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...Array.from({ length: 8 }, (_, i) => {
        const p = i === 0 ? 'a' : `b${i - 1}`;
        return `b${i}: &b${i} [*${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}]`;
      }),
    ].join('\n');
    const doc = parseFrontMatter(`---\n${bomb}\n---\nbody`, 'bomb.md');
    expect(doc.ok ? '' : doc.error).toMatch(/^bomb\.md:2: /);
    for (const hostile of [
      '- a\n- b',
      '!!binary x',
      'a: !!js/function x',
      'a: [\n',
      '? [a]\n: b',
      '"unclosed',
    ])
      expect(() => parseFrontMatter(`---\n${hostile}\n---\n`, 'h.md')).not.toThrow();
    // a 20 000-deep flow list exhausted the heap inside the YAML parser (a fatal crash, not an exception)
    const deep = parseFrontMatter(`---\na: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n---\nb`, 'deep.md');
    expect(deep).toEqual({ ok: false, error: 'deep.md: the front matter is nested deeper than 64 levels' });
    const huge = parseFrontMatter(`---\na: ${'x'.repeat(300_000)}\n---\nb`, 'huge.md');
    expect(huge.ok ? '' : huge.error).toMatch(/^huge\.md: the front matter is over \d+ characters$/);
    expect(parseFrontMatter('---\n- a\n---\n', 'l.md')).toEqual({
      ok: false,
      error: 'l.md:2: the front matter must be "key: value" lines, not a list',
    });
  });
});
