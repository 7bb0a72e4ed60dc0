/**
 * What `teamd gc` (and the lead's periodic run of it) did, or with `dryRun`
 * would do. Every list names files (repo-relative) or ids, so the report can
 * be printed as is and a test can check that nothing else was touched.
 */
export interface GcReport {
  dryRun: boolean;
  /** Tasks moved from `.tasks/` to `.tasks/archive/`. */
  archivedTasks: string[];
  /** Per log (events.jsonl, daemon.log, each mailbox archive): what rotated, got compressed, got deleted. */
  logs: LogRotation[];
  /** Merged `teamd/<id>` branches deleted (none when `keepBranches`). */
  branches: string[];
  /** Things left alone, and why (a busy lock, the daemon log of a running lead, kept branches). */
  notes: string[];
}

/** One append-only file's rotation. */
export interface LogRotation {
  file: string;
  /** The raw segment it became (null: still under its size and age). */
  rotated: string | null;
  compressed: string[];
  /** Old compressed segments deleted. */
  pruned: string[];
  bytesBefore: number;
  bytesAfter: number;
}

/** When a file rotates, when its raw segment may be compressed, and how long compressed segments stay. */
export interface RotationPolicy {
  rotateBytes: number;
  rotateAfterMs: number;
  keepSegmentsMs: number;
  /** A raw segment is compressed once unwritten for this long (a writer still holding it has moved on). */
  quietMs: number;
}
