/** What teamd writes on Claude Code's stdin: one JSON line per message, whatever the text holds. */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { userMessageLine } from '../../../../src/teammate/engines/claude-code/stdin.js';

it('frames any text as exactly one line that reads back to the same user message', () => {
  const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('a\nb', 'a\r\nb', '\u2028\u2029', '\0', '"}\n{"type":"result"', '\ud800'));
  fc.assert(
    fc.property(text, (t) => {
      const line = userMessageLine(t);
      expect(line.endsWith('\n')).toBe(true);
      const body = line.slice(0, -1);
      expect(body).not.toMatch(/[\n\r\u2028\u2029]/);
      expect(JSON.parse(body)).toEqual({ type: 'user', message: { role: 'user', content: t }, parent_tool_use_id: null, session_id: '' });
    }),
    { numRuns: 1000 },
  );
});
