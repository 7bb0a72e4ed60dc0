/**
 * Every real Claude Code file of the shared corpus (other people's files, read
 * where they are: ../shared/corpus/claude-code/) loads unchanged: agent files
 * parse with their name, mapped tools and model; `.mcp.json` files parse
 * server by server with no problem. Skips with a clear line when the corpus
 * is absent.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadMcpConfig } from '../../src/agent/mcp/config.js';
import { parseRoleFile } from '../../src/agent/subagents/role-file.js';
import { TEAMD_TOOL_NAMES } from '../../src/tools/claude-names.js';
import { CORPUS_SKIP_LINE, corpusDir, corpusFiles } from '../support/corpus.js';

const present = corpusDir() !== null;
if (!present) console.log(CORPUS_SKIP_LINE);

/** The front matter's own `name:` / `model:` line, read without YAML, to check the parse against. */
const rawField = (text: string, key: string): string | undefined =>
  new RegExp(`^${key}:[ \\t]*["']?([^"'\\r\\n]*?)["']?[ \\t]*\\r?$`, 'm').exec(text)?.[1];

describe.skipIf(!present)('the shared corpus of real Claude Code files', () => {
  test.each(corpusFiles('agents').map((f) => [basename(f), f]))('agent file %s', (_, file) => {
    const text = readFileSync(file, 'utf8');
    const role = parseRoleFile(text, file);
    if (!role.ok) throw new Error(role.error);
    expect(role.value.name).toBe(rawField(text, 'name'));
    expect(role.value.description.length).toBeGreaterThan(0);
    expect(role.value.prompt.length).toBeGreaterThan(0);
    expect(role.value.model).toBe(rawField(text, 'model'));
    // every tool is a teamd tool, or one that is warned about by name
    for (const tool of role.value.tools ?? [])
      if (!TEAMD_TOOL_NAMES.has(tool) && !tool.startsWith('mcp__'))
        expect(role.value.warnings?.some((w) => w.includes(`"${tool}"`))).toBe(true);
    if (/^tools:.*\bRead\b/m.test(text) || /^\s+- Read\s*$/m.test(text))
      expect(role.value.tools).toContain('read');
    if (/^tools:.*\bBash\b/m.test(text) || /^\s+- Bash\s*$/m.test(text))
      expect(role.value.tools).toContain('bash');
  });

  test.each(corpusFiles('mcp').map((f) => [basename(f), f]))('.mcp.json %s', async (_, file) => {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: Record<string, { type?: string }> };
    const { servers, problems } = await loadMcpConfig(file, {});
    expect(problems).toEqual([]);
    expect([...servers.keys()]).toEqual(Object.keys(raw.mcpServers));
    for (const [name, server] of servers) {
      const type = raw.mcpServers[name]!.type;
      expect(server.type).toBe(type === undefined || type === 'local' ? 'stdio' : type);
    }
  });
});

test('the corpus locator answers (a path or null), never throws', () => {
  expect(() => corpusDir()).not.toThrow();
});
