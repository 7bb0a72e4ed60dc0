import { Text, useApp, useInput, useStdin, type Key } from 'ink';
import { useMemo, useRef, useState } from 'react';
import { terminalSafeLine } from '../../observe/terminal-safe.js';
import type { LoggedEvent } from '../../observe/types.js';
import type { DashboardActions } from '../actions.js';
import { useTeamState, useTerminalSize } from '../hooks.js';
import type { Focus } from '../panels/header.js';
import { makeTheme } from '../theme.js';
import type { DashboardState, TeamSource } from '../types.js';
import { Dashboard } from './Dashboard.js';
import { TranscriptView } from './TranscriptView.js';

export interface AppProps {
  source: TeamSource;
  actions: DashboardActions;
  noColor: boolean;
  /** New events since the last read (the bell rings from here). */
  onFresh?: (events: LoggedEvent[]) => void;
}

const clamp = (i: number, length: number): number => Math.max(0, Math.min(length - 1, i));

interface Selection {
  focus: Focus;
  teammate: number;
  approval: number;
}

/** Arrow keys and j/k move within the focused list; tab switches lists. */
function moveSelection(sel: Selection, input: string, key: Key, state: DashboardState): Selection {
  if (key.tab) return { ...sel, focus: sel.focus === 'teammates' ? 'approvals' : 'teammates' };
  const step = key.upArrow || input === 'k' ? -1 : key.downArrow || input === 'j' ? 1 : 0;
  if (!step) return sel;
  if (sel.focus === 'teammates')
    return { ...sel, teammate: clamp(sel.teammate + step, state.teammates.length) };
  return { ...sel, approval: clamp(sel.approval + step, state.approvals.length) };
}

export function App({ source, actions, noColor, onFresh }: AppProps) {
  const { exit } = useApp();
  const { isRawModeSupported } = useStdin();
  const { columns, rows } = useTerminalSize();
  const theme = useMemo(() => makeTheme(noColor), [noColor]);
  const { state, error, version } = useTeamState(source, onFresh);
  const [sel, setSel] = useState<Selection>({ focus: 'teammates', teammate: 0, approval: 0 });
  const [following, setFollowing] = useState<string | null>(null);
  const [flash, setFlash] = useState<string | null>(null);

  // Keys read the latest render's values through this ref: ink registers a new
  // input handler only after React flushes effects, and a key typed right after
  // a frame is drawn would otherwise see the previous state.
  const latest = useRef({ state, sel, following });
  latest.current = { state, sel, following };

  const follow = (agent: string | null): void => {
    latest.current.following = agent;
    setFollowing(agent);
  };

  const answer = (approve: boolean): void => {
    const { state: now, sel: current } = latest.current;
    const request = now?.approvals[clamp(current.approval, now.approvals.length)];
    if (!request) return setFlash('nothing to answer');
    setFlash(`${approve ? 'approving' : 'rejecting'} ${request.id}…`);
    void actions.answer(request.id, approve).then(setFlash);
  };

  useInput(
    (input, key) => {
      const { state: now, sel: current, following: agent } = latest.current;
      if (input === 'q') return exit();
      if (agent) {
        if (key.escape || key.backspace || key.delete || key.leftArrow) follow(null);
        return;
      }
      if (!now) return;
      setFlash(null);
      if (key.return && current.focus === 'teammates')
        return follow(now.teammates[clamp(current.teammate, now.teammates.length)]?.name ?? null);
      if (current.focus === 'approvals' && (input === 'a' || input === 'r')) return answer(input === 'a');
      const next = moveSelection(current, input, key, now);
      latest.current.sel = next;
      setSel(next);
    },
    { isActive: isRawModeSupported },
  );

  if (following)
    return (
      <TranscriptView
        agent={following}
        actions={actions}
        version={version}
        columns={columns}
        rows={rows}
        theme={theme}
      />
    );
  if (!state) return <Text>{error ? terminalSafeLine(`teamd top: ${error}`) : 'reading the team…'}</Text>;
  const teammate = clamp(sel.teammate, state.teammates.length);
  const approval = clamp(sel.approval, state.approvals.length);
  return (
    <Dashboard
      state={state}
      columns={columns}
      rows={rows}
      theme={theme}
      focus={sel.focus}
      selectedTeammate={teammate}
      selectedApproval={approval}
      flash={error ? `✘ ${error}` : flash}
    />
  );
}
