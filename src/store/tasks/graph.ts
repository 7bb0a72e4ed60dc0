/** The dependency graph of tasks: an edge goes from a task to each task in its `blockedBy`. */
type Graph = ReadonlyMap<string, { readonly blockedBy: readonly string[] }>;

const edgesOf = (tasks: Graph, id: string): string[] =>
  (tasks.get(id)?.blockedBy ?? []).filter((b) => tasks.has(b));

/**
 * Groups of tasks that wait on each other in a circle, including a task blocked
 * by itself (Tarjan's strongly connected components, iterative so a 10,000-long
 * chain cannot overflow the stack).
 */
export function findCycles(tasks: Graph): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const enter = (id: string): void => {
    order.set(id, order.size);
    low.set(id, order.size - 1);
    stack.push(id);
    onStack.add(id);
  };
  const closeComponent = (root: string): void => {
    const members: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== root);
    if (members.length > 1 || edgesOf(tasks, root).includes(root)) cycles.push(members.reverse());
  };
  for (const start of tasks.keys()) {
    if (order.has(start)) continue;
    enter(start);
    const frames = [{ id: start, edges: edgesOf(tasks, start), next: 0 }];
    while (frames.length) {
      const frame = frames[frames.length - 1]!;
      const dep = frame.edges[frame.next++];
      if (dep !== undefined) {
        if (!order.has(dep)) {
          enter(dep);
          frames.push({ id: dep, edges: edgesOf(tasks, dep), next: 0 });
        } else if (onStack.has(dep)) low.set(frame.id, Math.min(low.get(frame.id)!, order.get(dep)!));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.id, Math.min(low.get(parent.id)!, low.get(frame.id)!));
      if (low.get(frame.id) === order.get(frame.id)) closeComponent(frame.id);
    }
  }
  return cycles;
}

/**
 * The cycle that giving task `id` these `blockedBy` would close, as a path
 * `id → … → id`, or null. Follows `blockedBy` edges breadth-first from the new
 * blockers; reaching `id` again means a circle.
 */
export function cycleThrough(tasks: Graph, id: string, blockedBy: readonly string[]): string[] | null {
  const cameFrom = new Map<string, string>();
  const queue: string[] = [];
  const visit = (next: string, from: string): void => {
    if (cameFrom.has(next)) return;
    cameFrom.set(next, from);
    queue.push(next);
  };
  for (const b of blockedBy) visit(b, id);
  for (let i = 0; i < queue.length; i++) {
    const current = queue[i]!;
    if (current === id) return pathBack(cameFrom, id);
    for (const next of tasks.get(current)?.blockedBy ?? []) visit(next, current);
  }
  return null;
}

function pathBack(cameFrom: ReadonlyMap<string, string>, id: string): string[] {
  const path = [id];
  let current = cameFrom.get(id)!;
  while (current !== id) {
    path.push(current);
    current = cameFrom.get(current)!;
  }
  path.push(id);
  return path.reverse();
}
