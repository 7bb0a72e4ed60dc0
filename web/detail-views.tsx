/**
 * The views that fetch more than the snapshot: a task's detail (description,
 * notes, result, attempts, diff, transcript) and a teammate's live
 * transcript. Both fetch again whenever a new snapshot arrived (`version`).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { WireTaskDetail, WireTranscript } from '../src/web/wire.js';
import { fetchTask, fetchTranscript } from './api.js';
import { STATUS_LABEL, time } from './format.js';
import { TranscriptView } from './transcript-view.js';

/**
 * What `load` gives for `identity`, fetched again for every new `version` —
 * but never two at once: snapshots may come faster than a fetch (a diff is two
 * git calls), so a newer version waits for the running fetch, then one fetch
 * covers all that came meanwhile. A result is shown only for the identity it
 * was asked for (a stale task never shows on another's page).
 */
function useFetched<T>(load: () => Promise<T>, identity: string, version: number): { value: T | null; error: string | null } {
  const [state, setState] = useState<{ key: string; value: T | null; error: string | null }>({ key: identity, value: null, error: null });
  const run = useRef({ busy: false, again: false });
  const latest = useRef({ load, identity });
  latest.current = { load, identity };
  useEffect(() => {
    const r = run.current;
    if (r.busy) return void (r.again = true);
    const go = (): void => {
      r.busy = true;
      r.again = false;
      const { load: fetchNow, identity: key } = latest.current;
      fetchNow()
        .then((value) => key === latest.current.identity && setState({ key, value, error: null }))
        .catch((err: Error) => key === latest.current.identity && setState((s) => ({ key, value: s.key === key ? s.value : null, error: err.message })))
        .finally(() => {
          r.busy = false;
          if (r.again) go();
        });
    };
    go();
  }, [identity, version]);
  return state.key === identity ? state : { value: null, error: null };
}

function Diff({ text }: { text: string }) {
  return (
    <pre class="diff">
      {text.split('\n').map((l, i) => (
        <span key={i} class={l.startsWith('+') && !l.startsWith('+++') ? 'add' : l.startsWith('-') && !l.startsWith('---') ? 'del' : l.startsWith('@@') ? 'hunk' : ''}>
          {`${l}\n`}
        </span>
      ))}
    </pre>
  );
}

function TaskBody({ d }: { d: WireTaskDetail }) {
  const t = d.task;
  return (
    <article class="task-detail" data-task={t.id}>
      <h2>
        <span class={`badge st-${t.status}`}>{STATUS_LABEL[t.status] ?? t.status}</span> <span class="task-id">{t.id}</span> <span class="task-subject">{t.subject}</span>
      </h2>
      <dl class="facts">
        <dt>owner</dt><dd>{t.owner ?? '—'}</dd>
        <dt>attempts</dt><dd>{t.attempts}</dd>
        <dt>blocked by</dt><dd>{t.blockedBy.length ? t.blockedBy.join(', ') : '—'}</dd>
        <dt>merge</dt><dd>{t.merge ?? '—'}</dd>
        <dt>updated</dt><dd>{time(t.updatedAt)}</dd>
      </dl>
      <h3>Description</h3>
      <pre class="description">{t.description || '(none)'}</pre>
      <h3>{`Notes (${t.notes.length})`}</h3>
      <ul class="notes">{t.notes.map((n, i) => <li key={i}><span class="muted">{`${time(n.ts)} · ${n.by}: `}</span><span class="note-text">{n.text}</span></li>)}</ul>
      <h3>Result</h3>
      {t.result ? <pre class={t.result.error ? 'result-text bad' : 'result-text'}>{t.result.error ? `${t.result.summary}\n✘ ${t.result.error}` : t.result.summary}</pre> : <p class="muted">no result yet</p>}
      <h3>Diff against the integration branch</h3>
      {d.diff.ok ? <Diff text={d.diff.text} /> : <p class="muted">{`no diff: ${d.diff.error}`}</p>}
      <h3>Transcript</h3>
      {d.transcript ? <TranscriptView transcript={d.transcript} follow={false} /> : <p class="muted">no transcript for this task yet</p>}
    </article>
  );
}

export function TaskDetailView({ id, version }: { id: string; version: number }) {
  const { value, error } = useFetched(() => fetchTask(id), id, version);
  if (error) return <p class="result bad" role="alert">{error}</p>;
  if (!value) return <p class="muted">loading {id}…</p>;
  return <TaskBody d={value} />;
}

export function AgentView({ name, version }: { name: string; version: number }) {
  const [follow, setFollow] = useState(true);
  const { value, error } = useFetched<WireTranscript>(() => fetchTranscript(name), name, version);
  return (
    <section id="agent-view" data-agent={name}>
      <h2>{`${name}: live transcript`}</h2>
      <label class="inline">
        <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.currentTarget.checked)} /> follow the newest
      </label>
      {error ? <p class="result bad" role="alert">{error}</p> : <TranscriptView transcript={value} follow={follow} />}
    </section>
  );
}
