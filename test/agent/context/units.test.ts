import { describe, expect, test } from 'vitest';
import { CLEARED_PREFIX, clearOldToolResults } from '../../../src/agent/context/clear-results.js';
import { parseFrontMatter, renderFrontMatter } from '../../../src/agent/context/front-matter.js';
import { foldersDownTo } from '../../../src/agent/context/instructions.js';
import { ContextMeter, estimateRequest } from '../../../src/agent/context/tokens.js';
import type { ConversationMessage } from '../../../src/model/types.js';
import { emptyUsage } from '../../../src/model/types.js';

const history: ConversationMessage[] = [
  { role: 'user', content: 'task' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'read', input: { file_path: 'x' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'A'.repeat(500) }] },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'b', name: 'grep', input: { pattern: 'y' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'b', content: 'B'.repeat(500) }] },
];

describe('context pieces', () => {
  test('the meter uses the API usage of the last call plus an estimate of what came after', () => {
    const meter = new ContextMeter();
    const request = { system: 's', tools: [], messages: history.slice(0, 2) };
    expect(meter.measure(request)).toBe(estimateRequest(request));
    meter.observe(
      { ...emptyUsage(), input_tokens: 5_000, cache_read_input_tokens: 1_000, output_tokens: 20 },
      history.slice(0, 2),
    );
    const later = { ...request, messages: history.slice(0, 3) };
    expect(meter.measure(later)).toBe(6_020 + Math.ceil(JSON.stringify([history[2]]).length / 4));
    meter.reset();
    expect(meter.measure(later)).toBe(estimateRequest(later));
  });

  test('clearing old tool results keeps the calls and the recent turns', () => {
    const cleared = clearOldToolResults(history, 1)!;
    expect(cleared[1]).toBe(history[1]);
    const old = cleared[2]!.content as { content: string }[];
    expect(old[0]!.content).toBe(
      `${CLEARED_PREFIX} read returned 500 characters; call it again if you need them]`,
    );
    expect(cleared[4]).toBe(history[4]);
    expect(clearOldToolResults(cleared, 1)).toBe(null); // nothing left to clear
  });

  test('front matter written by renderFrontMatter reads back', () => {
    const data = { name: 'x', description: 'has: colons, "quotes" and # hashes\nand a newline' };
    const doc = parseFrontMatter(renderFrontMatter(data, 'Body text.'), 'f.md');
    expect(doc).toEqual({ ok: true, value: { data, body: 'Body text.' } });
    expect(parseFrontMatter('No front matter.', 'g.md')).toEqual({
      ok: true,
      value: { data: {}, body: 'No front matter.' },
    });
  });

  test('instruction folders run from the root down to the cwd, and stop at the root', () => {
    expect(foldersDownTo('/r', '/r/a/b')).toEqual(['/r', '/r/a', '/r/a/b']);
    expect(foldersDownTo('/r', '/r')).toEqual(['/r']);
    expect(foldersDownTo('/r', '/elsewhere')).toEqual(['/r']);
  });
});

describe('estimateRequest', () => {
  test('counts the tools as their JSON would, without writing it for every request', async () => {
    const { builtinTools, toolDefinition } = await import('../../../src/tools/index.js');
    const tools = builtinTools().map(toolDefinition);
    const request = { system: 'sys', tools, messages: history };
    const asJson = Math.ceil('sys'.length / 4) + Math.ceil(JSON.stringify(tools).length / 4) + Math.ceil(JSON.stringify(history).length / 4);
    expect(Math.abs(estimateRequest(request) - asJson)).toBeLessThanOrEqual(tools.length + 2);
  });
});
