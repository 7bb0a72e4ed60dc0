/** Small words and numbers of the page. */
export const usd = (n: number): string => `$${n < 10 ? n.toFixed(4) : n.toFixed(2)}`;

export const tokens = (n: number): string =>
  n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)}M` : n >= 10_000 ? `${Math.round(n / 1000)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);

export function age(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return 'now';
  if (ms < 60_000) return `${Math.round(ms / 1000)} s ago`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min ago`;
  return `${Math.round(ms / 3_600_000)} h ago`;
}

export const time = (iso: string | null): string => (iso ? new Date(iso).toLocaleString() : '—');

export const STATUS_LABEL: Record<string, string> = {
  pending: 'pending',
  in_progress: 'running',
  completed: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
};
