/**
 * Control messages have a typed form (a Message with `type` and
 * `metadata.request_id`) and a compact text form that a person or a model can
 * write inside an ordinary message:
 *   <shutdown_request from="lead" reason="done" request_id="r1" />
 *   <shutdown_approved from="worker-1" request_id="r1" />
 *   <shutdown_rejected from="worker-1" request_id="r1" reason="mid-merge" />
 *   <plan_approved from="lead" request_id="p1" />
 *   <plan_rejected from="lead" request_id="p1" reason="split it" />
 * Both forms mean the same; `controlOf` turns either into one shape.
 */
import { MAX_JSON_DEPTH, valueShapeProblem } from '../store/json-bounds.js';
import type { Message } from '../store/types.js';

/**
 * Bounds of one message between the lead and a worker thread, checked where it
 * lands before its schema (or anything recursive: logging, re-sending) sees it.
 * Twice the file bound: a model request nests tool schemas inside the envelope.
 */
export const IPC_MAX_DEPTH = 2 * MAX_JSON_DEPTH;
export const IPC_MAX_CHARS = 64 * 1024 * 1024;

/** Why a message that arrived over IPC is refused unread, or undefined when it is within bounds. */
export const ipcShapeProblem = (raw: unknown): string | undefined =>
  valueShapeProblem(raw, { maxDepth: IPC_MAX_DEPTH, maxChars: IPC_MAX_CHARS });

export type Control =
  | { kind: 'shutdown_request'; from: string; requestId: string; reason: string }
  | { kind: 'shutdown_response'; from: string; requestId: string; approve: boolean; reason: string }
  | { kind: 'plan_approval_request'; from: string; requestId: string; plan: string }
  | { kind: 'plan_approval_response'; from: string; requestId: string; approve: boolean; reason: string }
  | { kind: 'permission_response'; from: string; requestId: string; approve: boolean; reason: string; updatedInput?: unknown };

const TAG = /<(shutdown_request|shutdown_approved|shutdown_rejected|plan_approved|plan_rejected)\b([^>]*?)\/?>/g;
const ATTR = /(\w+)="([^"]*)"/g;

function attrs(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of raw.matchAll(ATTR)) out[m[1]!] = m[2]!;
  return out;
}

/** Control messages written in the compact text form anywhere in `text`. */
export function parseControlText(text: string, defaultFrom: string): Control[] {
  const found: Control[] = [];
  for (const m of text.matchAll(TAG)) {
    const a = attrs(m[2] ?? '');
    const from = a.from ?? defaultFrom;
    const requestId = a.request_id ?? '';
    const reason = a.reason ?? '';
    switch (m[1]) {
      case 'shutdown_request':
        found.push({ kind: 'shutdown_request', from, requestId, reason });
        break;
      case 'shutdown_approved':
      case 'shutdown_rejected':
        found.push({ kind: 'shutdown_response', from, requestId, approve: m[1] === 'shutdown_approved', reason });
        break;
      default:
        found.push({ kind: 'plan_approval_response', from, requestId, approve: m[1] === 'plan_approved', reason });
    }
  }
  return found;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The control meaning of a message, typed or in text form; null for ordinary mail. */
export function controlOf(msg: Message): Control | null {
  const md = msg.metadata;
  const requestId = str(md.request_id);
  switch (msg.type) {
    case 'shutdown_request':
      return { kind: 'shutdown_request', from: msg.from, requestId, reason: str(md.reason) || msg.content };
    case 'shutdown_response':
      return { kind: 'shutdown_response', from: msg.from, requestId, approve: md.approve === true, reason: str(md.reason) };
    case 'plan_approval_request':
      return { kind: 'plan_approval_request', from: msg.from, requestId, plan: msg.content };
    case 'plan_approval_response':
      return { kind: 'plan_approval_response', from: msg.from, requestId, approve: md.approve === true, reason: str(md.reason) || msg.content };
    case 'permission_response':
      return {
        kind: 'permission_response',
        from: msg.from,
        requestId,
        approve: md.approve === true,
        reason: str(md.reason),
        updatedInput: md.updatedInput,
      };
    default:
      return parseControlText(msg.content, msg.from)[0] ?? null;
  }
}

/**
 * A shutdown request from `from` to `to`, as `send` takes it: typed, with the
 * same request in text form in its content (what a model reads, and what an
 * ordinary message carrying `<shutdown_request …/>` means too).
 */
export function shutdownRequestMessage(from: string, to: string, reason: string, requestId = `sd-${Date.now().toString(36)}`) {
  const content = formatControl({ kind: 'shutdown_request', from, requestId, reason: reason.replace(/"/g, "'") });
  return { from, to, type: 'shutdown_request' as const, content, metadata: { request_id: requestId, reason } };
}

export const formatControl = (c: Control): string => {
  switch (c.kind) {
    case 'shutdown_request':
      return `<shutdown_request from="${c.from}" request_id="${c.requestId}" reason="${c.reason}" />`;
    case 'shutdown_response':
      return `<shutdown_${c.approve ? 'approved' : 'rejected'} from="${c.from}" request_id="${c.requestId}"${c.reason ? ` reason="${c.reason}"` : ''} />`;
    case 'plan_approval_response':
      return `<plan_${c.approve ? 'approved' : 'rejected'} from="${c.from}" request_id="${c.requestId}"${c.reason ? ` reason="${c.reason}"` : ''} />`;
    default:
      return '';
  }
};
