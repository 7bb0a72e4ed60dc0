/**
 * The session a hook is told about: `session_id` and `transcript_path`, the
 * same values `teamd agent -p` reports in its stream-json `system/init`.
 * The transcript is a Claude-Code-shaped JSONL file (src/agent/claude-transcript.ts
 * writes it; docs/AGENT.md maps its lines): next to teamd's own transcripts
 * when the runtime keeps them, else in a private folder of the temp dir.
 */
import os from 'node:os';
import path from 'node:path';

export interface HookSession {
  session_id: string;
  transcript_path: string;
}

export interface HookSessionInput {
  /** The runtime's (sanitised) session id. */
  sessionId: string;
  /** Where the runtime writes `<session>.jsonl` (teamd's shape), when it does. */
  transcriptDir?: string;
}

/** The folder of Claude-Code-shaped transcripts for a runtime without a transcriptDir. */
export function defaultHookTranscriptDir(): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return path.join(os.tmpdir(), `teamd-${uid}`, 'claude-code');
}

export function hookSession(input: HookSessionInput): HookSession {
  const dir =
    input.transcriptDir === undefined
      ? defaultHookTranscriptDir()
      : path.join(input.transcriptDir, 'claude-code');
  return { session_id: input.sessionId, transcript_path: path.join(dir, `${input.sessionId}.jsonl`) };
}
