import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import type { DashboardActions, TranscriptTail } from '../actions.js';
import { titleLine } from '../panels/section.js';
import type { Theme } from '../theme.js';
import { terminalSafeLine } from '../../observe/terminal-safe.js';
import { LineText } from './Lines.js';

export interface TranscriptViewProps {
  agent: string;
  actions: DashboardActions;
  /** Changes whenever the team's files changed: the tail is read again. */
  version: number;
  columns: number;
  rows: number;
  theme: Theme;
}

/** One teammate's newest session, following it live (the renderer made its lines terminal-safe). */
export function TranscriptView({ agent, actions, version, columns, rows, theme }: TranscriptViewProps) {
  const height = Math.max(3, rows - 3);
  const [tail, setTail] = useState<TranscriptTail>({ title: agent, lines: [] });
  useEffect(() => {
    let alive = true;
    void actions.transcript(agent, height).then(
      (t) => alive && setTail(t),
      (err: Error) =>
        alive && setTail({ title: agent, lines: [terminalSafeLine(`cannot read the transcript: ${err.message}`)] }),
    );
    return () => {
      alive = false;
    };
  }, [agent, actions, version, height]);
  return (
    <Box flexDirection="column" width={columns}>
      <LineText line={titleLine(tail.title, columns)} theme={theme} />
      <Box flexDirection="column" height={height} overflow="hidden">
        {tail.lines.slice(-height).map((line, i) => (
          <Text key={i} wrap="truncate-end">
            {line}
          </Text>
        ))}
      </Box>
      <LineText line={[{ text: 'esc back · q quit (following live)', tone: 'muted' }]} theme={theme} />
    </Box>
  );
}
