import { Box } from 'ink';
import { planLayout } from '../layout.js';
import { eventLines } from '../panels/events.js';
import { footerLine, headerLine, type Focus } from '../panels/header.js';
import { titleLine } from '../panels/section.js';
import { approvalLines, cronMergeLines, mailLines, sideHeights } from '../panels/side.js';
import { teammateLines } from '../panels/teammates.js';
import { taskGraphLines } from '../task-graph.js';
import type { Theme } from '../theme.js';
import type { DashboardState } from '../types.js';
import { LineText, Panel } from './Lines.js';

export interface DashboardProps {
  state: DashboardState;
  columns: number;
  rows: number;
  theme: Theme;
  focus: Focus;
  selectedTeammate: number;
  selectedApproval: number;
  flash: string | null;
}

/** The main screen: header, teammates, the task graph, then events beside approvals, mail, cron and merges. */
export function Dashboard({
  state,
  columns,
  rows,
  theme,
  focus,
  selectedTeammate,
  selectedApproval,
  flash,
}: DashboardProps) {
  const l = planLayout(state, columns, rows);
  const reviews = state.tasks.filter((t) => t.merge === 'review');
  const side = sideHeights(state, l.bottom, reviews.length);
  const c = state.taskCounts;
  const taskTitle = titleLine('Tasks', l.width, [
    {
      text: `  ${c.completed} done · ${c.in_progress} running · ${c.pending} pending${c.failed ? ` · ${c.failed} failed` : ''}`,
      tone: 'muted',
    },
  ]);
  return (
    <Box flexDirection="column" width={l.width}>
      <LineText line={headerLine(state)} theme={theme} />
      <Panel
        lines={teammateLines(
          state.teammates,
          l.teammates,
          l.width,
          focus === 'teammates' ? selectedTeammate : null,
        )}
        height={l.teammates}
        theme={theme}
      />
      <Panel
        lines={[taskTitle, ...taskGraphLines(state.tasks, l.tasks - 1, l.width)]}
        height={l.tasks}
        theme={theme}
      />
      <Box flexDirection="row" height={l.bottom}>
        <Panel
          lines={[titleLine('Events', l.left), ...eventLines(state.events, state.now, l.bottom - 1, l.left)]}
          height={l.bottom}
          width={l.left}
          theme={theme}
        />
        <Box width={2} />
        <Box flexDirection="column" width={l.right}>
          <Panel
            lines={approvalLines(
              state.approvals,
              side.approvals,
              l.right,
              focus === 'approvals' ? selectedApproval : null,
              reviews,
            )}
            height={side.approvals}
            theme={theme}
          />
          <Panel lines={cronMergeLines(state, side.cron, l.right)} height={side.cron} theme={theme} />
          <Panel lines={mailLines(state.mail, side.mail, l.right)} height={side.mail} theme={theme} />
        </Box>
      </Box>
      <LineText line={footerLine(focus, flash)} theme={theme} />
    </Box>
  );
}
