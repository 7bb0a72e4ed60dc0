import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseServers } from '../../../src/agent/mcp/config.js';

const serverish = fc.oneof(
  fc.jsonValue(),
  fc.record(
    {
      type: fc.oneof(fc.constantFrom('stdio', 'local', 'http', 'sse', 'ws'), fc.jsonValue()),
      command: fc.oneof(fc.string(), fc.jsonValue()),
      args: fc.oneof(fc.array(fc.string()), fc.jsonValue()),
      env: fc.oneof(fc.dictionary(fc.string(), fc.string()), fc.jsonValue()),
      url: fc.oneof(fc.string(), fc.jsonValue()),
      headers: fc.oneof(fc.dictionary(fc.string(), fc.string()), fc.jsonValue()),
      extra: fc.jsonValue(),
    },
    { requiredKeys: [] },
  ),
);

describe('.mcp.json servers, adversarial', () => {
  test('never throws; every server is loaded or a problem naming it and a field, never both, never ✖', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^[\w-]{1,12}$/), serverish), (raw) => {
        const { servers, problems, warnings } = parseServers(raw, 'f.json', {});
        for (const name of Object.keys(raw)) {
          const named = problems.filter((p) => p.startsWith(`f.json: mcpServers.${name}.`));
          expect(servers.has(name) !== named.length > 0).toBe(true);
        }
        for (const line of [...problems, ...warnings]) {
          expect(line).toMatch(/^f\.json: mcpServers\.[\w-]+\.(\(server\)|"|[\w-])/); // a field, never empty
          expect(line).not.toMatch(/\.: /);
          expect(line).not.toContain('✖');
        }
      }),
      { numRuns: 300 },
    );
  });
});
