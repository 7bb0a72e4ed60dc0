/** The smaller boards: mailboxes, cron jobs with their next fire, the merge queue. */
import type { WireSnapshot } from '../src/web/wire.js';
import { time } from './format.js';

export function MailPanel({ mail }: { mail: WireSnapshot['mail'] }) {
  if (!mail.length) return <p class="muted">no mailboxes yet</p>;
  return (
    <ul class="cards" id="mail">
      {mail.map((m) => (
        <li class="card" key={m.agent} data-mailbox={m.agent}>
          <p>
            <b>{m.agent}</b> {`· ${m.unread} unread`}
          </p>
          {m.latest ? (
            <p class="mail-latest">
              <span class="muted">{`${time(m.latest.ts)} · ${m.latest.from} · ${m.latest.type}: `}</span>
              <span>{m.latest.content}</span>
            </p>
          ) : (
            <p class="muted">no mail</p>
          )}
        </li>
      ))}
    </ul>
  );
}

export function CronPanel({ cron }: { cron: WireSnapshot['cron'] }) {
  if (!cron.length) return <p class="muted">no cron jobs (.cron/)</p>;
  return (
    <div class="table-scroll">
      <table id="cron">
        <thead>
          <tr><th>job</th><th>schedule</th><th>to</th><th>next fire</th></tr>
        </thead>
        <tbody>
          {cron.map((c) => (
            <tr key={c.id}>
              <td>{c.id}</td>
              <td><code>{c.cron}</code></td>
              <td>{c.to}</td>
              <td>{c.done ? 'done' : time(c.next)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function MergePanel({ merges }: { merges: WireSnapshot['merges'] }) {
  if (!merges.length) return <p class="muted">the merge queue is empty</p>;
  return (
    <div class="table-scroll">
      <table id="merges">
        <thead>
          <tr><th>task</th><th>state</th><th>detail</th></tr>
        </thead>
        <tbody>
          {merges.map((m) => (
            <tr key={m.taskId}>
              <td><a href={`#/task/${encodeURIComponent(m.taskId)}`}>{m.taskId}</a></td>
              <td>{m.state}</td>
              <td>{m.detail ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
