import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { AgentRuntime } from '../../src/agent/runtime.js';
import { OptionsError } from '../../src/config/options.js';
import { createModelClient } from '../../src/model/factory.js';
import { ScriptedModel } from '../../src/model/scripted/scripted-model.js';
import { collect, tempDir } from '../agent/support/workspace.js';

const model = () => new ScriptedModel({ steps: [{ content: [{ type: 'text', text: 'Done.' }] }] });

function thrown(fn: () => unknown): OptionsError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(OptionsError);
    expect(err).toBeInstanceOf(TypeError);
    return err as OptionsError;
  }
  throw new Error('expected an OptionsError');
}

describe('AgentRuntime options', () => {
  test('the issue\'s example (a policy with only defaultMode) runs: allow, deny and ask default to none', async () => {
    await using dir = await tempDir();
    const runtime = new AgentRuntime({ model: model(), cwd: dir.path, permissionPolicy: { defaultMode: 'bypassPermissions' } });
    const { result } = await collect(runtime.submitMessage('hi'));
    expect(result).toMatchObject({ type: 'result', subtype: 'success', result: 'Done.' });
  });

  test('a wrong permission mode names the option and the allowed values', () => {
    const err = thrown(() => new AgentRuntime({ model: model(), cwd: '/tmp', permissionPolicy: { defaultMode: 'yolo' as 'plan' } }));
    expect(err.message).toBe(
      'AgentRuntime options: permissionPolicy.defaultMode: expected one of "default", "acceptEdits", "bypassPermissions", "plan", "dontAsk", got "yolo"',
    );
  });

  test.each([
    [{ context: { autoCompact: 'yes' } }, 'context: Unrecognized key: "autoCompact"'],
    [{ context: { summariseAt: 2 } }, 'context.summariseAt: '],
    [{ subagents: { roles: 5 } }, 'subagents.roles: '],
    [{ subagents: { roles: [{ name: 'r' }] } }, 'subagents.roles.0.'],
    [{ memory: { dir: 3 } }, 'memory.dir: '],
    [{ mcp: { servers: 'x' } }, 'mcp.servers: '],
    [{ mcp: { connectTimeoutMs: -1 } }, 'mcp.connectTimeoutMs: '],
  ])('a bad nested option %j is refused naming its field, before any run', (bad, named) => {
    const err = thrown(() => new AgentRuntime({ model: model(), cwd: '/tmp', ...(bad as object) }));
    expect(err.message).toContain(`AgentRuntime options: ${named}`);
  });

  test('a misspelt option is refused by name, not ignored', () => {
    const err = thrown(() => new AgentRuntime({ model: model(), cwd: '/tmp', maxTurn: 3 } as never));
    expect(err.problems).toEqual(['maxTurn: unknown option']);
  });

  test('a missing model and a non-function callback are both listed', () => {
    const err = thrown(() => new AgentRuntime({ cwd: '/tmp', onEvent: 'log' } as never));
    expect(err.problems).toHaveLength(2);
    expect(err.message).toMatch(/model: expected a ModelClient/);
    expect(err.message).toMatch(/onEvent: expected a function/);
  });

  test('generated wrong numbers never crash the runtime with anything but an OptionsError', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ max: 0 }), fc.double({ noNaN: false }).filter((n) => !Number.isInteger(n)), fc.string()), (maxTurns) => {
        const err = thrown(() => new AgentRuntime({ model: model(), cwd: '/tmp', maxTurns: maxTurns as number }));
        expect(err.problems[0]).toMatch(/^maxTurns: /);
      }),
    );
  });
});

describe('createModelClient options', () => {
  test('a wrong record mode names the allowed values', async () => {
    await expect(createModelClient('claude-sonnet-4-5', { recordMode: 'all' as 'match' })).rejects.toThrow(
      'createModelClient options: recordMode: expected one of "match", "ordered", got "all"',
    );
  });

  test('an empty spec and an unknown option are refused', async () => {
    await expect(createModelClient('')).rejects.toBeInstanceOf(OptionsError);
    await expect(createModelClient('claude-sonnet-4-5', { apikey: 'x' } as never)).rejects.toThrow('apikey: unknown option');
  });
});

describe('ScriptedModel script', () => {
  test('a bad step names its field', () => {
    const err = thrown(() => new ScriptedModel({ steps: [{ content: 42 }] } as never));
    expect(err.message).toMatch(/^ScriptedModel script: steps\.0\.content: /);
  });
});
