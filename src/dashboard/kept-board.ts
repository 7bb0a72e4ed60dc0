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
}

/** Per question, its answers by the first argument (a task id, or none): a lookup per task per refresh must be cheap. */
type Answers = Map<PropertyKey, Map<unknown, unknown>>;

function answerer(target: TaskStore, prop: PropertyKey, method: (...args: unknown[]) => unknown, answers: Answers) {
  let mine = answers.get(prop);
  if (!mine) answers.set(prop, (mine = new Map()));
  const known = mine;
  return (...args: unknown[]): unknown => {
    if (args.length > 1) return method.apply(target, args);
    const key = args[0];
    if (known.has(key)) return known.get(key);
    const answer = method.apply(target, args);
    known.set(key, answer);
    return answer;
  };
}

const kept = new WeakMap<TaskStore, Kept>();

/** A view of `store` answering `DERIVED` questions once per `generation`; everything else goes to the store. */
export function keptBoard(store: TaskStore, generation: number): TaskStore {
  const known = kept.get(store);
  if (known?.generation === generation) return known.view;
  const answers: Answers = new Map();
  const methods = new Map<PropertyKey, unknown>();
  const view = new Proxy(store, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      let method = methods.get(prop);
      if (method === undefined) {
        const own = value as (...args: unknown[]) => unknown;
        method = DERIVED.has(prop) ? answerer(target, prop, own, answers) : own.bind(target);
        methods.set(prop, method);
      }
      return method;
    },
  });
  kept.set(store, { generation, view });
  return view;
}
