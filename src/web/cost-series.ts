/**
 * Cost over time for the chart. Transcript lines carry no clock, so a run's
 * spend is placed at the time the web server first saw it finished: for runs
 * already on disk at start, their session file's modification time; for runs
 * that finish while the page is open, the moment they did. Points are
 * cumulative per teammate and per model, and kept to MAX_POINTS per series
 * (older points merged) so a long team does not grow the page.
 */
import { statSync } from 'node:fs';
import type { Spend } from '../observe/cost.js';
import type { CostSeries } from './wire.js';

const MAX_POINTS = 200;

interface Seen {
  t: number;
  agent: string;
  model: string;
  usd: number;
}

const fileOfRun = (run: string): string => run.slice(0, run.lastIndexOf('#'));

function mtimeOr(file: string, fallback: number): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return fallback;
  }
}

function cumulative(seen: readonly Seen[], keyOf: (s: Seen) => string): CostSeries[] {
  const series = new Map<string, { t: number; usd: number }[]>();
  const totals = new Map<string, number>();
  for (const s of [...seen].sort((a, b) => a.t - b.t)) {
    const key = keyOf(s);
    const usd = (totals.get(key) ?? 0) + s.usd;
    totals.set(key, usd);
    const points = series.get(key) ?? [];
    if (points.at(-1)?.t === s.t) points[points.length - 1] = { t: s.t, usd };
    else points.push({ t: s.t, usd });
    series.set(key, points);
  }
  return [...series].map(([key, points]) => ({ key, points: thin(points) }));
}

/** Every k-th point and the last, so at most MAX_POINTS remain. */
function thin(points: { t: number; usd: number }[]): { t: number; usd: number }[] {
  if (points.length <= MAX_POINTS) return points;
  const step = Math.ceil(points.length / MAX_POINTS);
  return points.filter((_, i) => i % step === 0 || i === points.length - 1);
}

export class CostTimeline {
  private readonly finished = new Map<string, Seen[]>();
  private first = true;

  /** Takes the current spends (finished and running); returns the series by teammate and by model. */
  update(spends: readonly Spend[], now = Date.now()): { byTeammate: CostSeries[]; byModel: CostSeries[] } {
    for (const s of spends) {
      if (!s.finished) continue;
      const key = `${s.run}\u0000${s.model}`;
      if (this.finished.has(key)) continue;
      const t = this.first ? mtimeOr(fileOfRun(s.run), now) : now;
      this.finished.set(key, [{ t, agent: s.agent, model: s.model, usd: s.costUsd }]);
    }
    this.first = false;
    const open = spends.filter((s) => !s.finished).map((s) => ({ t: now, agent: s.agent, model: s.model, usd: s.costUsd }));
    const seen = [...[...this.finished.values()].flat(), ...open];
    return { byTeammate: cumulative(seen, (s) => s.agent), byModel: cumulative(seen, (s) => s.model) };
  }
}
