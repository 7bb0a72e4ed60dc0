/**
 * The page: a header (lead, counts, link state, theme), a nav of views
 * reached by #hash links (so Back works and every view is a URL), and the
 * view. State comes whole from the server's SSE stream; views that need more
 * fetch it when a new snapshot arrives.
 */
import { useEffect, useState } from 'preact/hooks';
import type { WireSnapshot } from '../src/web/wire.js';
import { AnswerPanel } from './answer-panel.js';
import { followSnapshots } from './api.js';
import { CronPanel, MailPanel, MergePanel } from './boards.js';
import { CostChart } from './cost-chart.js';
import { AgentView, TaskDetailView } from './detail-views.js';
import { EventsPanel } from './events-panel.js';
import { usd } from './format.js';
import { GraphLegend, TaskGraph } from './graph-view.js';
import { TeamPanel } from './team-panel.js';
import { parseRoute, type Route, VIEWS } from './route.js';
import { ThemeToggle } from './theme.js';

function useHashRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = (): void => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

function Header({ s, up }: { s: WireSnapshot | null; up: boolean }) {
  const lead = !s ? '…' : s.lead.running ? `lead running (pid ${s.lead.pid})${s.lead.paused ? ', paused' : ''}` : s.finished ? 'team finished' : 'no lead running';
  return (
    <header class="top">
      <h1>teamd</h1>
      <span class="lead-state" data-running={String(s?.lead.running ?? false)}>{lead}</span>
      {s && <span>{`${s.tasks.length} tasks · ${usd(s.cost.totalUsd)}`}</span>}
      <span class={up ? 'link up' : 'link down'} role="status">{up ? '● live' : '○ reconnecting'}</span>
      <ThemeToggle />
    </header>
  );
}

function Nav({ route, s }: { route: Route; s: WireSnapshot | null }) {
  const waiting = (s?.approvals.length ?? 0) + (s?.reviews.length ?? 0);
  return (
    <nav aria-label="views">
      {VIEWS.map((v) => (
        <a key={v.name} href={`#/${v.name}`} aria-current={route.view === v.name ? 'page' : undefined}>
          {v.label}
          {v.name === 'answers' && waiting > 0 ? ` (${waiting})` : ''}
        </a>
      ))}
    </nav>
  );
}

function View({ route, s, version }: { route: Route; s: WireSnapshot; version: number }) {
  switch (route.view) {
    case 'task':
      return <TaskDetailView id={route.arg} version={version} />;
    case 'agent':
      return <AgentView name={route.arg} version={version} />;
    case 'team':
      return <TeamPanel teammates={s.teammates} />;
    case 'answers':
      return <AnswerPanel approvals={s.approvals} reviews={s.reviews} />;
    case 'mail':
      return <MailPanel mail={s.mail} />;
    case 'cron':
      return <CronPanel cron={s.cron} />;
    case 'merges':
      return <MergePanel merges={s.merges} />;
    case 'events':
      return <EventsPanel version={version} />;
    case 'cost':
      return (
        <div id="cost">
          <p class={s.budget.overTeam ? 'budget bad' : 'budget'}>
            {s.budget.maxUsd === null
              ? `spent ${usd(s.budget.spentUsd)} (no team budget set)`
              : `spent ${usd(s.budget.spentUsd)} of the team's ${usd(s.budget.maxUsd)} budget${s.budget.overTeam ? ': over budget, no new work' : ''}`}
            {s.budget.overTeammates.length > 0 && ` · over their own budget: ${s.budget.overTeammates.join(', ')}`}
          </p>
          <CostChart title="cost per teammate" series={s.cost.byTeammate} />
          <CostChart title="cost per model" series={s.cost.byModel} />
        </div>
      );
    default:
      return (
        <>
          <GraphLegend tasks={s.tasks} />
          <TaskGraph tasks={s.tasks} />
        </>
      );
  }
}

export function App() {
  const [snapshot, setSnapshot] = useState<WireSnapshot | null>(null);
  const [version, setVersion] = useState(0);
  const [up, setUp] = useState(false);
  const route = useHashRoute();
  useEffect(
    () =>
      followSnapshots(
        (s) => {
          setSnapshot(s);
          setVersion((v) => v + 1);
        },
        setUp,
      ),
    [],
  );
  return (
    <>
      <Header s={snapshot} up={up} />
      <Nav route={route} s={snapshot} />
      <main id="view" data-view={route.view} data-version={version}>
        {snapshot ? <View route={route} s={snapshot} version={version} /> : <p class="muted">loading the team…</p>}
      </main>
    </>
  );
}
