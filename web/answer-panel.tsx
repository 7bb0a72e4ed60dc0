/**
 * Approvals and reviews, answered from the page: each has a reason box and
 * its buttons, which POST the same answers `teamd approve` / `reject` /
 * `accept` write. What happened (or why not) goes to the panel's answer log,
 * which outlives the card (an answered request leaves the next snapshot).
 */
import { useState } from 'preact/hooks';
import type { ActionResult, WireApproval, WireReview } from '../src/web/wire.js';
import { postAction } from './api.js';

type Report = (r: ActionResult) => void;

function useAnswer(report: Report): [ActionResult | null, boolean, (action: string, body: Record<string, string | undefined>) => Promise<void>] {
  const [result, setResult] = useState<ActionResult | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (action: string, body: Record<string, string | undefined>): Promise<void> => {
    setBusy(true);
    const r = await postAction(action, body).catch((err: Error) => ({ ok: false as const, error: err.message }));
    setResult(r);
    report(r);
    setBusy(false);
  };
  return [result, busy, run];
}

function ResultLine({ result }: { result: ActionResult | null }) {
  if (!result) return null;
  return (
    <p class={result.ok ? 'result ok' : 'result bad'} role="status">
      {result.ok ? result.message : `✘ ${result.error}`}
    </p>
  );
}

function Approval({ a, report }: { a: WireApproval; report: Report }) {
  const [reason, setReason] = useState('');
  const [result, busy, run] = useAnswer(report);
  const body = { id: a.id, reason: reason.trim() || undefined };
  return (
    <li class="card approval" data-request={a.id}>
      <p>
        <b>{a.agent}</b> {`asks (${a.kind}${a.task ? `, task ${a.task}` : ''}):`}
      </p>
      <pre class="summary">{a.summary}</pre>
      <label>
        reason (optional)
        <textarea value={reason} onInput={(e) => setReason(e.currentTarget.value)} rows={2} />
      </label>
      <div class="buttons">
        <button type="button" class="approve" data-action="approve" disabled={busy} onClick={() => void run('approve', body)}>
          Approve
        </button>
        <button type="button" class="reject" data-action="reject" disabled={busy} onClick={() => void run('reject', body)}>
          Reject
        </button>
      </div>
      <ResultLine result={result} />
    </li>
  );
}

function Review({ r, report }: { r: WireReview; report: Report }) {
  const [reason, setReason] = useState('');
  const [result, busy, run] = useAnswer(report);
  return (
    <li class="card review" data-review={r.task}>
      <p>
        <a href={`#/task/${encodeURIComponent(r.task)}`}>{r.task}</a> {`by ${r.owner ?? '?'}: `}
        <span>{r.subject}</span>
      </p>
      <label>
        reason (needed to reject)
        <textarea value={reason} onInput={(e) => setReason(e.currentTarget.value)} rows={2} />
      </label>
      <div class="buttons">
        <button type="button" class="approve" data-action="accept" disabled={busy} onClick={() => void run('accept', { task: r.task })}>
          Accept
        </button>
        <button
          type="button"
          class="reject"
          data-action="review-reject"
          disabled={busy || !reason.trim()}
          onClick={() => void run('review-reject', { task: r.task, reason })}
        >
          Reject
        </button>
      </div>
      <ResultLine result={result} />
    </li>
  );
}

export function AnswerPanel({ approvals, reviews }: { approvals: WireApproval[]; reviews: WireReview[] }) {
  const [log, setLog] = useState<ActionResult[]>([]);
  const report: Report = (r) => setLog((old) => [r, ...old].slice(0, 20));
  return (
    <div class="answers">
      {log.length > 0 && (
        <ul id="answered" aria-label="answers given" class="answered">
          {log.map((r, i) => (
            <li key={log.length - i} class={r.ok ? 'result ok' : 'result bad'}>{r.ok ? r.message : `✘ ${r.error}`}</li>
          ))}
        </ul>
      )}
      <section aria-labelledby="h-approvals" id="approvals">
        <h2 id="h-approvals">{`Approvals (${approvals.length})`}</h2>
        {approvals.length ? <ul class="cards">{approvals.map((a) => <Approval key={a.id} a={a} report={report} />)}</ul> : <p class="muted">nothing waits for an approval</p>}
      </section>
      <section aria-labelledby="h-reviews" id="reviews">
        <h2 id="h-reviews">{`Reviews (${reviews.length})`}</h2>
        {reviews.length ? <ul class="cards">{reviews.map((r) => <Review key={r.task} r={r} report={report} />)}</ul> : <p class="muted">no task waits for a review</p>}
      </section>
    </div>
  );
}
