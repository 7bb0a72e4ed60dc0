import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';

/** What a figure was measured on: every report carries it, since the numbers mean nothing without it. */
export interface Machine {
  nproc: number;
  cpu: string;
  memGiB: number;
  node: string;
  /** 1, 5 and 15 minute load averages when the benchmark started (others share this machine). */
  loadavg: number[];
}

export function machine(): Machine {
  return {
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    memGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    loadavg: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

export const describeMachine = (m: Machine): string =>
  `${m.nproc} cpus (${m.cpu}), ${m.memGiB} GiB, node ${m.node}, load ${m.loadavg.join(' / ')}`;
