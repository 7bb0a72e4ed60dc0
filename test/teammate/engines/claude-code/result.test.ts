/** A Claude Code `result` becomes teamd's: subtypes, errors, per-turn cost from the session's running total, usage under the model. */
import { expect, it } from 'vitest';
import { mapResult } from '../../../../src/teammate/engines/claude-code/result.js';
import { CcResultSchema } from '../../../../src/teammate/engines/claude-code/types.js';

const cc = (fields: Record<string, unknown>) =>
  CcResultSchema.parse({ type: 'result', subtype: 'success', is_error: false, result: 'ok', num_turns: 3, total_cost_usd: 0.3, usage: { input_tokens: 1, output_tokens: 2, cache_read_input_tokens: 3, cache_creation_input_tokens: 4, service_tier: 'x' }, ...fields });
const ctx = { sessionId: 'sess', model: 'claude-opus-5-5', parentId: 'task-1', costBefore: 0.1 };

it('a success: the final text, the turn cost, usage under the session model, depth 0', () => {
  const r = mapResult(cc({}), ctx);
  expect(r).toMatchObject({ type: 'result', subtype: 'success', is_error: false, result: 'ok', num_turns: 3, session_id: 'sess', parent_id: 'task-1', depth: 0 });
  expect(r.total_cost_usd).toBeCloseTo(0.2);
  expect(r.usage).toEqual({ 'claude-opus-5-5': { input_tokens: 1, output_tokens: 2, cache_read_input_tokens: 3, cache_creation_input_tokens: 4 } });
  expect(r.error).toBeUndefined();
});

it('the limits keep their names; their text becomes the error', () => {
  expect(mapResult(cc({ subtype: 'error_max_turns', is_error: true, result: '', errors: ['10 turns'] }), ctx)).toMatchObject({ subtype: 'error_max_turns', is_error: true, result: '', error: '10 turns' });
  expect(mapResult(cc({ subtype: 'error_max_budget_usd', is_error: true }), ctx)).toMatchObject({ subtype: 'error_max_budget_usd', is_error: true });
});

it('an unknown error subtype, or a "success" marked as an error, fails the run and says what the CLI said', () => {
  expect(mapResult(cc({ subtype: 'error_something_new', is_error: true, result: 'API Error: 500' }), ctx)).toMatchObject({
    subtype: 'error_during_execution',
    error: 'claude-code error_something_new: API Error: 500',
  });
  expect(mapResult(cc({ is_error: true, result: 'Credit balance is too low' }), ctx)).toMatchObject({
    subtype: 'error_during_execution',
    is_error: true,
    error: expect.stringContaining('Credit balance is too low'),
  });
});

it('a running total below what was counted before never makes a negative cost', () => {
  expect(mapResult(cc({ total_cost_usd: 0.05 }), ctx).total_cost_usd).toBe(0);
});

it('permission denials are kept', () => {
  const r = mapResult(cc({ permission_denials: [{ tool_name: 'Bash', tool_use_id: 't1', tool_input: { command: 'rm -rf /' } }] }), ctx);
  expect(r.permission_denials).toEqual([{ tool_name: 'Bash', tool_use_id: 't1', tool_input: { command: 'rm -rf /' }, message: 'denied' }]);
});
