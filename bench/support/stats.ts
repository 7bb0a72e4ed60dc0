/** Order statistics of one set of samples, the shape every benchmark reports. */
export interface Stats {
  n: number;
  median: number;
  p99: number;
  min: number;
  max: number;
}

/** Nearest-rank quantiles (so p99 of 100 samples is the 99th, not an interpolation). */
export function stats(values: readonly number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  const pick = (q: number): number =>
    sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  return {
    n: sorted.length,
    median: pick(0.5),
    p99: pick(0.99),
    min: sorted[0] ?? NaN,
    max: sorted.at(-1) ?? NaN,
  };
}

/** `measured / floor`, or NaN when the floor is zero or missing. */
export const ratioOf = (measured: number, floor: number): number => (floor > 0 ? measured / floor : NaN);

/** The median of a few readings (RSS, timings repeated a handful of times). */
export const medianOf = (values: readonly number[]): number => stats(values).median;
