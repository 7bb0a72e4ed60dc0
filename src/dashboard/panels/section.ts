import type { Line, Segment } from '../types.js';

/** A section's title line: `Tasks  ✔3 ●1 ──────`, ruled to `width`. */
export function titleLine(title: string, width: number, extra: Segment[] = []): Line {
  const used = title.length + extra.reduce((n, s) => n + s.text.length, 0) + 1;
  return [
    { text: title, bold: true },
    ...extra,
    { text: ` ${'─'.repeat(Math.max(0, width - used - 1))}`, tone: 'muted' },
  ];
}

/** `lines` cut to `height`, the last kept line saying how many were left out. */
export function capLines(lines: Line[], height: number, what = 'more'): Line[] {
  if (lines.length <= height) return lines;
  if (height <= 0) return [];
  return [
    ...lines.slice(0, height - 1),
    [{ text: `… +${lines.length - height + 1} ${what}`, tone: 'muted' }],
  ];
}

/** A line's width in columns (the dashboard writes no wide characters in fixed columns). */
export const lineWidth = (line: Line): number => line.reduce((n, s) => n + s.text.length, 0);
