/** The teammates as cards: state, task, heartbeat, turns, tokens, cost, model, host; the name opens the live transcript. */
import type { WireTeammate } from '../src/web/wire.js';
import { age, tokens, usd } from './format.js';

function Teammate({ t }: { t: WireTeammate }) {
  return (
    <li class={`card teammate look-${t.look}`} data-teammate={t.name}>
      <p class="tm-head">
        <a href={`#/agent/${encodeURIComponent(t.name)}`}>{t.name}</a> <span class={`badge look-${t.look}`}>{t.look}</span>
        {t.overBudget && <span class="badge bad">over budget</span>}
      </p>
      <dl class="facts">
        <dt>task</dt>
        <dd>{t.task ? <a href={`#/task/${encodeURIComponent(t.task)}`}>{t.task}</a> : '—'}</dd>
        <dt>heartbeat</dt>
        <dd>{age(t.heartbeatAgeMs)}</dd>
        <dt>turns</dt>
        <dd>{`${t.turns}${t.runs === null ? '' : ` (${t.runs} runs)`}`}</dd>
        <dt>tokens</dt>
        <dd>{`${tokens(t.tokens.input)} in / ${tokens(t.tokens.output)} out`}</dd>
        <dt>cost</dt>
        <dd>{usd(t.costUsd)}</dd>
        <dt>model</dt>
        <dd>{t.model || '—'}</dd>
        <dt>host</dt>
        <dd>{t.host}</dd>
      </dl>
    </li>
  );
}

export function TeamPanel({ teammates }: { teammates: WireTeammate[] }) {
  if (!teammates.length) return <p class="muted">no teammates (the team's config names them)</p>;
  return <ul class="cards" id="teammates">{teammates.map((t) => <Teammate key={t.name} t={t} />)}</ul>;
}
