/**
 * The task section of the last `teamd status`, kept in
 * `.team/state/status-board.json` under the stamps of the files it was
 * computed from (board-stamps.ts): every `*.json` of `.tasks/`, and the
 * archived files its live tasks name as blockers (archive.ts: a `blockedBy`
 * naming an archived task is looked up there). When every stamp still
 * matches — same files, none added or gone, none rewritten — the section is
 * what reading the board again would give, so `status` takes it instead of
 * parsing 10,000 cached tasks, building the index and looking for cycles
 * (issue 24: those were three quarters of its time). Anything else — a
 * changed stamp, a file written in the last second, a broken, truncated,
 * edited or older file — and the board is read as before. Soft state: a
 * failed write leaves the old file, a bad file is ignored whole.
 *
 * The file is sealed like board-cache-file.ts (a first line with the format
 * and the SHA-256 of the rest) and its shape checked with zod: the seal
 * catches a torn or hand-edited file, the schema one whose fields are not
 * what the printer reads. Neither stops a writer of `.team/state/` who
 * recomputes the seal: that writer could as well edit `.tasks/`.
 */
import { createHash } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from '../store/atomic.js';
import { teamPaths } from '../store/paths.js';
import { ARCHIVE_FOLDER } from '../store/tasks/archive.js';
import { boardStamps, SETTLED_MS, stampText } from '../store/tasks/board-stamps.js';
import { readTeamFileSync } from '../store/team-file.js';
import { TaskStatusSchema, type Task, type TaskStatus } from '../store/types.js';

const FORMAT = 'teamd-status-board/1';
/** 10,000 tasks take ~1.5 MB; a board too large for this is read each time. */
const MAX_BYTES = 64 * 1024 * 1024;

const ProblemSchema = z.object({ file: z.string(), field: z.string().optional(), message: z.string() });
/**
 * One task line of `TeamStatus['tasks']` (status.ts). `reason`: why a failed
 * task failed (its result's error, else its summary); null for the other statuses.
 */
export interface TaskLine {
  id: string;
  subject: string;
  status: TaskStatus;
  owner: string | null;
  waitingFor: string[];
  ready: boolean;
  merge: string | null;
  reason: string | null;
}
const LINE_FIELDS = ['id', 'subject', 'status', 'owner', 'waitingFor', 'ready', 'merge', 'reason'];
const STATUSES: ReadonlySet<unknown> = new Set(TaskStatusSchema.options);
const stringOrNull = (v: unknown): boolean => v === null || typeof v === 'string';

/** Checked by hand, not by a zod object per line: at 10,000 lines that was 35 ms of a cold `status`. */
function isLine(v: unknown): v is TaskLine {
  if (typeof v !== 'object' || v === null) return false;
  const l = v as Record<string, unknown>;
  return typeof l.id === 'string' && typeof l.subject === 'string' && STATUSES.has(l.status) &&
    stringOrNull(l.owner) && typeof l.ready === 'boolean' && stringOrNull(l.merge) && stringOrNull(l.reason) &&
    Array.isArray(l.waitingFor) && l.waitingFor.every((id) => typeof id === 'string') &&
    Object.keys(l).length === LINE_FIELDS.length;
}

/** The `tasks` of `TeamStatus` (status.ts), as its printer and `--json` read it. */
export const TaskSectionSchema = z.object({
  counts: z.record(TaskStatusSchema, z.number()),
  list: z.custom<TaskLine[]>((v) => Array.isArray(v) && v.every(isLine), 'not a list of task lines'),
  problems: z.array(ProblemSchema),
});
export type TaskSection = z.infer<typeof TaskSectionSchema>;

/** `archived`: per blocker id not on the live board, its archive file's stamp or `missing`. */
const BodySchema = z.object({
  board: z.string(),
  archived: z.record(z.string(), z.string()),
  tasks: TaskSectionSchema,
});
type Body = z.infer<typeof BodySchema>;

const SCHEMA_FIELDS = LINE_FIELDS.join(',');
const sealOf = (body: string): string =>
  createHash('sha256').update(`${FORMAT}\n${SCHEMA_FIELDS}\n`).update(body).digest('hex');

/** The first line: the format, the board's digest (a changed board is told before the body is parsed) and the seal. */
const headOf = (board: string, body: string): string => JSON.stringify({ format: FORMAT, board, seal: sealOf(body) });

/** The file's text for a body (its JSON, with `board` its digest): the first line, then the body. */
export const sealStatusBoard = (body: string, board: string): string => `${headOf(board, body)}\n${body}`;

export const statusBoardOf = (repoRoot: string): string => `${teamPaths(repoRoot).state}/status-board.json`;

/** What a check of the board found: its stamps (null: it has a file that is not a plain one) and the kept section. */
export interface BoardCheck {
  stamps: ReturnType<typeof boardStamps>;
  kept: TaskSection | null;
}

/** The board's stamps now, and the kept section when they, and the archived blockers', match the file's. */
export function checkStatusBoard(repoRoot: string, now: number): BoardCheck {
  const tasks = teamPaths(repoRoot).tasks;
  const stamps = boardStamps(tasks, now);
  if (stamps === null) return { stamps, kept: null };
  const body = readBody(statusBoardOf(repoRoot), stamps.digest);
  const same =
    body !== null &&
    body.board === stamps.digest &&
    Object.entries(body.archived).every(([id, stamp]) => archivedStamp(tasks, id, now) === stamp);
  return { stamps, kept: same ? body.tasks : null };
}

function readBody(file: string, board: string): Body | null {
  const read = readTeamFileSync(file, 'status board', MAX_BYTES);
  if (read.kind !== 'text' || !read.text.startsWith(headOf(board, '').slice(0, -66))) return null;
  const cut = read.text.indexOf('\n');
  const body = read.text.slice(cut + 1);
  if (cut < 0 || read.text.slice(0, cut) !== headOf(board, body)) return null;
  try {
    const parsed = BodySchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * An archived file's stamp, `missing` when there is none, or null when it
 * cannot be kept: not a plain file, or written after `before - SETTLED_MS`
 * (it was read during this run: a write since would keep its stamp).
 */
function archivedStamp(tasksFolder: string, id: string, before: number): string | null {
  if (id.includes('/') || id.includes('\\') || id.startsWith('.')) return null;
  const st = lstatSync(`${tasksFolder}/${ARCHIVE_FOLDER}/${id}.json`, { throwIfNoEntry: false });
  if (st === undefined) return 'missing';
  if (!st.isFile() || before - st.mtimeMs < SETTLED_MS) return null;
  return stampText(st);
}

/**
 * Keeps `section`, computed from `tasks` read after `check` took its stamps at
 * `began`. Nothing is kept when a file was not settled then, or an archived
 * blocker cannot be stamped.
 */
export async function saveStatusBoard(
  repoRoot: string,
  check: BoardCheck,
  began: number,
  tasks: readonly Task[],
  section: TaskSection,
): Promise<void> {
  if (check.stamps === null || !check.stamps.settled || section.list.length === 0) return;
  // A blocker that is not a valid live task is looked up in the archive (task-index.ts), even with a broken live file.
  const valid = new Set(tasks.map((t) => t.id));
  const archived = new Map<string, string>();
  for (const id of tasks.flatMap((t) => t.blockedBy)) {
    if (valid.has(id) || archived.has(id)) continue;
    const stamp = archivedStamp(teamPaths(repoRoot).tasks, id, began);
    if (stamp === null) return;
    archived.set(id, stamp);
  }
  const body = JSON.stringify({ board: check.stamps.digest, archived: Object.fromEntries(archived), tasks: section });
  const text = sealStatusBoard(body, check.stamps.digest);
  if (text.length <= MAX_BYTES) await writeFileAtomic(statusBoardOf(repoRoot), text, { durable: false }).catch(() => undefined);
}
