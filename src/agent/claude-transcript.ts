/**
 * A transcript in Claude Code's JSONL shape, for hook scripts: one line per
 * `user` / `assistant` message, `{ type, uuid, parentUuid, sessionId,
 * timestamp, cwd, isSidechain, userType, message: { role, content, … } }`,
 * plus `{ type: "summary" }` after a compaction. A script that takes the last
 * assistant line's text blocks, or the `tool_use` blocks, works on it. It is
 * written before the hook of that moment runs (Stop sees the final answer).
 * Writes are synchronous appends; a failed write stops writing, never the run.
 */
import { closeSync, constants, writeSync } from 'node:fs';
import { openSyncMakingFolder } from '../store/open-sync.js';
import type { AgentEvent } from './types.js';

const WRITE_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;

export interface ClaudeTranscriptInfo {
  sessionId: string;
  cwd: string;
  /** A subagent's lines are marked as a sidechain, as Claude Code marks them. */
  sidechain: boolean;
}

export class ClaudeTranscript {
  private fd: number | null;
  private parent: string | null = null;
  error: string | null = null;

  private constructor(
    fd: number,
    readonly path: string,
    private readonly info: ClaudeTranscriptInfo,
  ) {
    this.fd = fd;
  }

  /** Opens (appending) the file; null and an error text when it cannot be opened. */
  static open(path: string, info: ClaudeTranscriptInfo): ClaudeTranscript | string {
    try {
      return new ClaudeTranscript(openSyncMakingFolder(path, WRITE_FLAGS, 0o600), path, info);
    } catch (error) {
      return `cannot open the hooks' transcript ${path}: ${(error as Error).message}`;
    }
  }

  write(event: AgentEvent): void {
    if (event.type === 'user' || event.type === 'assistant') this.message(event);
    else if (event.type === 'system' && event.subtype === 'compact')
      this.line({ type: 'summary', summary: event.message, leafUuid: this.parent });
  }

  private message(event: Extract<AgentEvent, { type: 'user' | 'assistant' }>): void {
    const message =
      event.type === 'assistant'
        ? {
            type: 'message',
            role: 'assistant',
            model: event.model,
            content: event.message.content,
            usage: { ...event.usage },
          }
        : { role: 'user', content: event.message.content };
    this.line({
      parentUuid: this.parent,
      isSidechain: this.info.sidechain,
      userType: 'external',
      cwd: this.info.cwd,
      sessionId: this.info.sessionId,
      type: event.type,
      message,
      uuid: event.uuid,
      timestamp: new Date().toISOString(),
    });
    this.parent = event.uuid;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private line(value: unknown): void {
    if (this.fd === null) return;
    try {
      writeSync(this.fd, JSON.stringify(value) + '\n');
    } catch (error) {
      this.error = `${this.path}: ${(error as Error).message}`;
      this.close();
    }
  }
}
