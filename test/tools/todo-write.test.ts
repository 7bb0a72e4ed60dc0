import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { currentTodos, todoWriteTool } from '../../src/tools/todo-write.js';
import { createTempRoot, type TempRoot } from './temp-root.js';

describe('todo_write tool', () => {
  let t: TempRoot;
  beforeEach(async () => {
    t = await createTempRoot();
  });
  afterEach(async () => t.close());

  it('keeps the plan in the session and renders it', async () => {
    const todos = [
      { content: 'Read the parser', status: 'completed' },
      { content: 'Fix the bug', status: 'in_progress', activeForm: 'Fixing the bug' },
      { content: 'Run the tests', status: 'pending' },
    ];
    const out = await t.run(todoWriteTool, { todos });
    expect(out.content).toBe(
      'Todo list updated (1/3 completed):\n[x] Read the parser\n[>] Fix the bug\n[ ] Run the tests',
    );
    expect(currentTodos(t.ctx)).toEqual(todos);
  });

  it('replaces the whole list each time and warns about two items in progress', async () => {
    await t.run(todoWriteTool, { todos: [{ content: 'a', status: 'pending' }] });
    const out = await t.run(todoWriteTool, {
      todos: [
        { content: 'b', status: 'in_progress' },
        { content: 'c', status: 'in_progress' },
      ],
    });
    expect(currentTodos(t.ctx).map((x) => x.content)).toEqual(['b', 'c']);
    expect(out.content).toContain('more than one item is in progress');
  });

  it('rejects an unknown status through its schema', () => {
    expect(todoWriteTool.inputSchema.safeParse({ todos: [{ content: 'x', status: 'done' }] }).success).toBe(
      false,
    );
  });
});
