import { Box, Text } from 'ink';
import { terminalSafeLine } from '../../observe/terminal-safe.js';
import type { Theme } from '../theme.js';
import type { Line } from '../types.js';

/** One row; each segment's text terminal-safe (task subjects, mail and events come from the repository). */
export function LineText({ line, theme }: { line: Line; theme: Theme }) {
  return (
    <Text wrap="truncate-end">
      {line.map((s, i) => (
        <Text
          key={i}
          color={theme.colour(s.tone)}
          dimColor={theme.dim(s.tone)}
          bold={s.bold}
          inverse={s.inverse}
        >
          {terminalSafeLine(s.text)}
        </Text>
      ))}
    </Text>
  );
}

/** A block of exactly `height` rows (short content is padded), so panels never push each other around. */
export function Panel({
  lines,
  height,
  width,
  theme,
}: {
  lines: Line[];
  height: number;
  width?: number;
  theme: Theme;
}) {
  return (
    <Box flexDirection="column" height={height} width={width} overflow="hidden">
      {lines.slice(0, height).map((line, i) => (
        <LineText key={i} line={line} theme={theme} />
      ))}
    </Box>
  );
}
