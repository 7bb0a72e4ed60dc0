/**
 * What a benchmark hands back: rows of samples (median, p99, min, max, n),
 * single figures, and the issue's targets as PASS/MISS. Every machine-bound
 * row or figure may name a floor measured in the same run, and is then shown
 * with its ratio to that floor. Printed as a table, written as JSON to
 * bench/results/<name>.json. Never fails on a number.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeMachine, machine, type Machine } from './machine.js';
import { ratioOf, stats, type Stats } from './stats.js';

export const RESULTS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'results');

export interface Row extends Stats {
  unit: string;
  /** The row this one is compared with (a floor measured in the same run). */
  floor?: string;
  /** median / floor median and p99 / floor p99. */
  ratio?: { median: number; p99: number };
}

export interface Figure {
  value: number;
  unit: string;
  floor?: string;
  ratio?: number;
}

export interface Target {
  name: string;
  /** The issue's target, in words (`p99 ≤ 100 ms`). */
  target: string;
  value: string;
  verdict: 'PASS' | 'MISS';
}

export interface BenchResult {
  bench: string;
  title: string;
  mode: 'quick' | 'full';
  machine: Machine;
  params: Record<string, unknown>;
  rows: Record<string, Row>;
  figures: Record<string, Figure>;
  targets: Target[];
  notes: string[];
  at: string;
}

export class BenchReport {
  private readonly result: BenchResult;

  constructor(bench: string, title: string, quick: boolean, params: Record<string, unknown> = {}) {
    this.result = {
      bench,
      title,
      mode: quick ? 'quick' : 'full',
      machine: machine(),
      params,
      rows: {},
      figures: {},
      targets: [],
      notes: [],
      at: '',
    };
  }

  /** Adds the stats of `samples`; with `floor`, the ratio to that (already added) row. */
  row(name: string, samples: readonly number[], unit = 'ms', floor?: string): Row {
    const row: Row = { ...stats(samples), unit };
    const base = floor === undefined ? undefined : this.result.rows[floor];
    if (base)
      Object.assign(row, {
        floor,
        ratio: { median: ratioOf(row.median, base.median), p99: ratioOf(row.p99, base.p99) },
      });
    this.result.rows[name] = row;
    return row;
  }

  figure(name: string, value: number, unit: string, floor?: string): Figure {
    const figure: Figure = { value, unit };
    const base = floor === undefined ? undefined : this.result.figures[floor];
    if (base) Object.assign(figure, { floor, ratio: ratioOf(value, base.value) });
    this.result.figures[name] = figure;
    return figure;
  }

  /** A target of the issue: `pass` decides the verdict, `value` is what was measured, in words. */
  target(name: string, target: string, value: string, pass: boolean): void {
    this.result.targets.push({ name, target, value, verdict: pass ? 'PASS' : 'MISS' });
  }

  note(text: string): void {
    this.result.notes.push(text);
  }

  get data(): BenchResult {
    return this.result;
  }

  /** Prints the table and writes bench/results/<bench>.json. */
  async finish(): Promise<BenchResult> {
    this.result.at = new Date().toISOString();
    console.log(renderText(this.result));
    const file = join(RESULTS_DIR, `${this.result.bench}.json`);
    await mkdir(RESULTS_DIR, { recursive: true });
    await writeFile(file, JSON.stringify(this.result, null, 2) + '\n');
    console.log(`wrote ${file}\n`);
    return this.result;
  }
}

const num = (v: number): string =>
  Number.isNaN(v) ? '—' : Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2);
const times = (v: number | undefined): string => (v === undefined || Number.isNaN(v) ? '' : `${num(v)}×`);

/** The result as plain-text tables (what a benchmark prints). */
export function renderText(r: BenchResult): string {
  const lines = [`${r.title} — ${r.mode}`, `  ${describeMachine(r.machine)}`, ''];
  const rows = Object.entries(r.rows);
  if (rows.length) {
    const w = Math.max(8, ...rows.map(([n]) => n.length)) + 2;
    lines.push(
      `${'measure'.padEnd(w)}${['median', 'p99', 'min', 'max', 'n'].map((h) => h.padStart(10)).join('')}  unit   × floor (median / p99)`,
    );
    for (const [name, s] of rows) {
      const ratio = s.ratio ? `${times(s.ratio.median)} / ${times(s.ratio.p99)} of "${s.floor}"` : '';
      lines.push(
        `${name.padEnd(w)}${[s.median, s.p99, s.min, s.max].map((v) => num(v).padStart(10)).join('')}${String(s.n).padStart(10)}  ${s.unit.padEnd(6)} ${ratio}`,
      );
    }
    lines.push('');
  }
  const figures = Object.entries(r.figures);
  if (figures.length) {
    const w = Math.max(8, ...figures.map(([n]) => n.length)) + 2;
    lines.push(`${'figure'.padEnd(w)}${'value'.padStart(12)}  unit         × floor`);
    for (const [name, f] of figures)
      lines.push(
        `${name.padEnd(w)}${num(f.value).padStart(12)}  ${f.unit.padEnd(12)} ${f.ratio === undefined ? '' : `${times(f.ratio)} of "${f.floor}"`}`,
      );
    lines.push('');
  }
  for (const t of r.targets)
    lines.push(`${t.verdict === 'PASS' ? 'PASS' : 'MISS'}  ${t.name}: ${t.target} — measured ${t.value}`);
  for (const n of r.notes) lines.push(`note: ${n}`);
  return lines.join('\n');
}

/** The result as markdown tables (bench/results/SUMMARY.md, docs/BENCHMARKS.md). */
export function renderMarkdown(r: BenchResult): string {
  const out = [`### ${r.title} (${r.mode})`, '', `${describeMachine(r.machine)}; ${r.at}`, ''];
  const rows = Object.entries(r.rows);
  if (rows.length) {
    out.push(
      '| measure | median | p99 | min | max | n | unit | × floor (median / p99) |',
      '|---|---:|---:|---:|---:|---:|---|---|',
    );
    for (const [name, s] of rows)
      out.push(
        `| ${name} | ${num(s.median)} | ${num(s.p99)} | ${num(s.min)} | ${num(s.max)} | ${s.n} | ${s.unit} | ${s.ratio ? `${times(s.ratio.median)} / ${times(s.ratio.p99)}` : ''} |`,
      );
    out.push('');
  }
  const figures = Object.entries(r.figures);
  if (figures.length) {
    out.push('| figure | value | unit | × floor |', '|---|---:|---|---|');
    for (const [name, f] of figures)
      out.push(
        `| ${name} | ${num(f.value)} | ${f.unit} | ${f.ratio === undefined ? '' : `${times(f.ratio)} of ${f.floor}`} |`,
      );
    out.push('');
  }
  for (const t of r.targets) out.push(`- **${t.verdict}** ${t.name}: ${t.target} — measured ${t.value}`);
  for (const n of r.notes) out.push(`- note: ${n}`);
  return out.join('\n') + '\n';
}
