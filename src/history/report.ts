import type { GcReport } from './types.js';

const kib = (n: number): string => `${(n / 1024).toFixed(0)} KiB`;

/** One line saying what a gc did ('' when nothing). */
export function gcSummary(r: GcReport): string {
  const rotated = r.logs.filter((l) => l.rotated).map((l) => l.file);
  const compressed = r.logs.flatMap((l) => l.compressed);
  const pruned = r.logs.flatMap((l) => l.pruned);
  const parts = [
    r.archivedTasks.length ? `${r.archivedTasks.length} task(s) archived` : '',
    rotated.length ? `rotated ${rotated.join(', ')}` : '',
    compressed.length ? `${compressed.length} segment(s) compressed` : '',
    pruned.length ? `${pruned.length} old segment(s) deleted` : '',
    r.branches.length ? `${r.branches.length} merged branch(es) deleted` : '',
  ];
  return parts.filter(Boolean).join('; ');
}

/** Every line `teamd gc` prints: each thing removed or moved, then the notes. */
export function gcLines(r: GcReport): string[] {
  const verb = (done: string, would: string): string => (r.dryRun ? would : done);
  const lines: string[] = [];
  for (const id of r.archivedTasks)
    lines.push(`${verb('archived', 'would archive')} task ${id} → .tasks/archive/${id}.json`);
  for (const l of r.logs) {
    if (l.rotated)
      lines.push(`${verb('rotated', 'would rotate')} ${l.file}${r.dryRun ? '' : ` → ${l.rotated}`}`);
    for (const c of l.compressed) lines.push(`${verb('compressed', 'would compress')} ${c}`);
    if (l.compressed.length && !r.dryRun) lines.push(`  ${kib(l.bytesBefore)} → ${kib(l.bytesAfter)}`);
    for (const p of l.pruned) lines.push(`${verb('deleted', 'would delete')} ${p}`);
  }
  for (const b of r.branches) lines.push(`${verb('deleted', 'would delete')} branch ${b}`);
  for (const n of r.notes) lines.push(`note: ${n}`);
  if (!lines.length) lines.push('nothing to collect');
  return lines;
}
