/**
 * Work that outlives the tool call that started it: background shells and
 * background subagents. Such work reports its end through the session's
 * notifier, which the runtime connects to its input queue (so the report joins
 * the conversation at the agent's next turn, never inside another tool's
 * result), and registers a stop function that the runtime's `close()` runs, so
 * nothing outlives its agent.
 */

/** The end of one piece of background work, as text for the model. */
export interface TaskNotification {
  taskId: string;
  /** A `<task_notification>` block (see `taskNotificationText`). */
  text: string;
}

export type TaskNotifier = (notification: TaskNotification) => void;
type Stop = () => Promise<void>;

const NOTIFIER_KEY = 'task_notifier';
const STOPS_KEY = 'task_stops';

/** The runtime connects the notifier once, when it builds the session. */
export function setTaskNotifier(session: Map<string, unknown>, notify: TaskNotifier): void {
  session.set(NOTIFIER_KEY, notify);
}

/** Hands a notification to the session's agent; false when nobody listens (a tool run outside a runtime). */
export function notifyTaskEnded(session: Map<string, unknown>, notification: TaskNotification): boolean {
  const notify = session.get(NOTIFIER_KEY) as TaskNotifier | undefined;
  if (notify === undefined) return false;
  notify(notification);
  return true;
}

function stopsOf(session: Map<string, unknown>): Set<Stop> {
  let stops = session.get(STOPS_KEY) as Set<Stop> | undefined;
  if (stops === undefined) {
    stops = new Set();
    session.set(STOPS_KEY, stops);
  }
  return stops;
}

/** Registers `stop` to run when the session closes; the returned function unregisters it. */
export function onSessionClose(session: Map<string, unknown>, stop: Stop): () => void {
  const stops = stopsOf(session);
  stops.add(stop);
  return () => stops.delete(stop);
}

/** Runs every registered stop (in parallel; a failing one does not keep the others from running). */
export async function closeSessionTasks(session: Map<string, unknown>): Promise<void> {
  const stops = [...stopsOf(session)];
  stopsOf(session).clear();
  await Promise.allSettled(stops.map((stop) => stop()));
}

/**
 * `<task_notification>` with one line per field and, optionally, a multi-line
 * body (`output_tail`, `result`) last. Values are written as they are: the
 * model reads them, no parser does.
 */
export function taskNotificationText(
  fields: Record<string, string | number | null>,
  body?: { tag: string; text: string },
): string {
  const lines = Object.entries(fields).map(([key, value]) => `<${key}>${value ?? ''}</${key}>`);
  if (body !== undefined) lines.push(`<${body.tag}>\n${body.text}\n</${body.tag}>`);
  return ['<task_notification>', ...lines, '</task_notification>'].join('\n');
}
