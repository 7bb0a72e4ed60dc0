/** How the dashboard writes durations, token counts and dollars: short, fixed-width friendly. */

/** `now`, `12s`, `4m`, `3h`, `2d`; `-` when unknown. */
export function shortAge(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '-';
  const abs = Math.max(0, ms);
  if (abs < 1000) return 'now';
  if (abs < 60_000) return `${Math.floor(abs / 1000)}s`;
  if (abs < 3_600_000) return `${Math.floor(abs / 60_000)}m`;
  if (abs < 86_400_000) return `${Math.floor(abs / 3_600_000)}h`;
  return `${Math.floor(abs / 86_400_000)}d`;
}

/** `950`, `13.2k`, `120k`, `4.1M`. */
export function shortCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 100_000) return `${(n / 1000).toFixed(1)}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** `$0.0123` below a dollar, `$12.35` above. */
export function usd(n: number): string {
  return n < 1 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`;
}

/** `text` cut to `width` columns with an ellipsis. */
export function fit(text: string, width: number): string {
  if (width <= 0) return '';
  return text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text;
}

/** The first line of `text`, whitespace collapsed. */
export const firstLine = (text: string): string => (text.split('\n', 1)[0] ?? '').replace(/\s+/g, ' ').trim();
