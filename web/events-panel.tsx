/** The event log with filters (types, agent, task), re-read from the server whenever the team changes. */
import { useEffect, useState } from 'preact/hooks';
import type { WireEvent } from '../src/web/wire.js';
import { fetchEvents, type EventFilter } from './api.js';

function Field({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  return (
    <label>
      {label}
      <input type="text" value={value} onInput={(e) => onChange(e.currentTarget.value)} />
    </label>
  );
}

export function EventsPanel({ version }: { version: number }) {
  const [filter, setFilter] = useState<EventFilter>({ type: '', agent: '', task: '' });
  const [events, setEvents] = useState<WireEvent[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    fetchEvents(filter)
      .then((e) => live && (setEvents(e), setError(null)))
      .catch((err: Error) => live && setError(err.message));
    return () => void (live = false);
  }, [filter, version]);
  return (
    <section id="events">
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="types (comma-separated)" value={filter.type} onChange={(type) => setFilter({ ...filter, type })} />
        <Field label="agent" value={filter.agent} onChange={(agent) => setFilter({ ...filter, agent })} />
        <Field label="task" value={filter.task} onChange={(task) => setFilter({ ...filter, task })} />
      </form>
      {error && <p class="result bad">{error}</p>}
      <ol class="event-list" reversed>
        {[...(events ?? [])].reverse().map((e, i) => (
          <li key={`${e.ts}-${i}`} class={`ev ev-${e.type}`}>
            <time>{new Date(e.ts).toLocaleTimeString()}</time> <span class="ev-type">{e.type}</span> <span>{e.text}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
