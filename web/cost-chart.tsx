/** Cumulative cost over time, one line per teammate or model, as plain SVG with a legend. */
import type { CostSeries } from '../src/web/wire.js';
import { usd } from './format.js';

const W = 640;
const H = 220;
const PAD = 36;
const COLOURS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#b07aa1', '#76b7b2', '#edc948', '#ff9da7', '#9c755f', '#bab0ac'];

export function CostChart({ title, series }: { title: string; series: CostSeries[] }) {
  const points = series.flatMap((s) => s.points);
  if (!points.length) return <p class="muted">{`${title}: nothing spent yet`}</p>;
  const t0 = Math.min(...points.map((p) => p.t));
  const t1 = Math.max(t0 + 1, ...points.map((p) => p.t));
  const top = Math.max(1e-6, ...points.map((p) => p.usd));
  const x = (t: number): number => PAD + ((t - t0) / (t1 - t0)) * (W - 2 * PAD);
  const y = (v: number): number => H - PAD - (v / top) * (H - 2 * PAD);
  const line = (s: CostSeries): string =>
    s.points.map((p, i) => `${i ? 'L' : 'M'}${x(p.t).toFixed(1)},${y(p.usd).toFixed(1)}`).join(' ') +
    (s.points.length === 1 ? ` L${x(t1).toFixed(1)},${y(s.points[0]!.usd).toFixed(1)}` : '');
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title} preserveAspectRatio="xMidYMid meet">
        <line x1={PAD} y1={H - PAD} x2={W - PAD} y2={H - PAD} class="axis" />
        <line x1={PAD} y1={PAD} x2={PAD} y2={H - PAD} class="axis" />
        <text x={PAD} y={PAD - 8} class="axis-label">{usd(top)}</text>
        <text x={PAD} y={H - 10} class="axis-label">{new Date(t0).toLocaleTimeString()}</text>
        <text x={W - PAD} y={H - 10} class="axis-label" text-anchor="end">{new Date(t1).toLocaleTimeString()}</text>
        {series.map((s, i) => (
          <path key={s.key} d={line(s)} class="series" stroke={COLOURS[i % COLOURS.length]} />
        ))}
      </svg>
      <ul class="chart-legend">
        {series.map((s, i) => (
          <li key={s.key}>
            <span class="swatch" style={{ background: COLOURS[i % COLOURS.length] }} />
            {`${s.key} ${usd(s.points.at(-1)?.usd ?? 0)}`}
          </li>
        ))}
      </ul>
    </figure>
  );
}
