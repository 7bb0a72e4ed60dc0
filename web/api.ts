/** The page's calls to its server: JSON GETs, POSTs with the token header, and the SSE stream. */
import type { ActionResult, WireEvent, WireSnapshot, WireTaskDetail, WireTranscript } from '../src/web/wire.js';

const token = (): string => document.querySelector<HTMLMetaElement>('meta[name="teamd-token"]')?.content ?? '';

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(path, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`${res.status} ${(await res.text()).trim()}`);
  return (await res.json()) as T;
}

export const fetchTask = (id: string): Promise<WireTaskDetail> => getJson(`/api/task/${encodeURIComponent(id)}`);
export const fetchTranscript = (agent: string): Promise<WireTranscript> => getJson(`/api/transcript/${encodeURIComponent(agent)}`);

export interface EventFilter {
  type: string;
  agent: string;
  task: string;
}

export function fetchEvents(f: EventFilter): Promise<WireEvent[]> {
  const q = new URLSearchParams({ limit: '300' });
  if (f.type.trim()) q.set('type', f.type.trim());
  if (f.agent.trim()) q.set('agent', f.agent.trim());
  if (f.task.trim()) q.set('task', f.task.trim());
  return getJson(`/api/events?${q.toString()}`);
}

export async function postAction(action: string, body: Record<string, string | undefined>): Promise<ActionResult> {
  const res = await fetch(`/api/${action}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', 'x-teamd-token': token() },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  try {
    return JSON.parse(text) as ActionResult;
  } catch {
    return { ok: false, error: `${res.status} ${text.trim()}` };
  }
}

/** Calls `onSnapshot` with every snapshot the server pushes; EventSource reconnects by itself. */
export function followSnapshots(onSnapshot: (s: WireSnapshot) => void, onLink: (up: boolean) => void): () => void {
  const source = new EventSource('/api/stream');
  source.addEventListener('snapshot', (e) => onSnapshot(JSON.parse((e as MessageEvent<string>).data) as WireSnapshot));
  source.onopen = () => onLink(true);
  source.onerror = () => onLink(false);
  return () => source.close();
}
