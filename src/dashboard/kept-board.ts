/**
 * The board as `readTeamStatus` reads it for `teamd top`, with what it
 * derives kept while the board is unchanged (issue 24): each refresh asked the
 * kept board again for its problems (a cycle search over every task), and for
 * each task's blockers and readiness, though the board had not changed since
 * the last refresh. The live board's generation (live-board.ts) says when it
 * did; the answers are then asked of the store again.
 */
import type { TaskStore } from '../store/tasks/index.js';

/** The store's questions whose answers depend on the board only. */
const DERIVED = new Set<PropertyKey>(['list', 'problems', 'blockers', 'isReady']);

interface Kept {
  generation: number;
  view: TaskStore;
  answers: Map<string, unknown>;
}

const kept = new WeakMap<TaskStore, Kept>();

/** A view of `store` answering `DERIVED` questions once per `generation`; everything else goes to the store. */
export function keptBoard(store: TaskStore, generation: number): TaskStore {
  const known = kept.get(store);
  if (known?.generation === generation) return known.view;
  const answers = new Map<string, unknown>();
  const view = new Proxy(store, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (!DERIVED.has(prop)) return method.bind(target);
      return (...args: unknown[]) => {
        const key = `${String(prop)}\n${JSON.stringify(args)}`;
        if (!answers.has(key)) answers.set(key, method.apply(target, args));
        return answers.get(key);
      };
    },
  });
  kept.set(store, { generation, view, answers });
  return view;
}
