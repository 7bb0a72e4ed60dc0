/**
 * Signatures for scripted thinking blocks, so the fake server can refuse a
 * thinking block that came back changed, as the real API does. A signature is
 * an HMAC of the reasoning under a fixed key (the same in every process, so a
 * saved conversation can be resumed); a redacted block's `data` carries its
 * own HMAC. Test material only: it proves nothing to anyone but the fake server.
 */
import { createHmac, randomBytes } from 'node:crypto';

const KEY = 'teamd-fake-thinking-v1';
const mac = (text: string): string => createHmac('sha256', KEY).update(text).digest('base64');

export const signThinking = (thinking: string): string => `sig_${mac(thinking)}`;

export const verifyThinking = (thinking: string, signature: string): boolean =>
  signature === signThinking(thinking);

/** Opaque redacted data: a random payload and its HMAC. */
export function sealRedacted(payload = randomBytes(24).toString('base64')): string {
  return `${payload}.${mac(payload)}`;
}

export function verifyRedacted(data: string): boolean {
  const dot = data.lastIndexOf('.');
  return dot > 0 && mac(data.slice(0, dot)) === data.slice(dot + 1);
}

type Signed = { type: 'thinking'; signature: string } | { type: 'redacted_thinking'; data: string };

/** A short MAC of a turn's thinking blocks, in order. */
export const sealOfThinking = (blocks: readonly Signed[]): string =>
  mac(blocks.map((b) => (b.type === 'thinking' ? `t:${b.signature}` : `r:${b.data}`)).join('\n'))
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 16);

const MARK = /_th([A-Za-z0-9]{16})$/;

/**
 * A generated tool_use id of a turn with thinking carries the seal of that
 * turn's thinking blocks, so a server can tell, from the request alone, that
 * they were dropped or changed when the tool result comes back.
 */
export const markToolUseId = (id: string, blocks: readonly Signed[]): string =>
  `${id}_th${sealOfThinking(blocks)}`;

/** A tool_use id without its seal. */
export const withoutSeal = (id: string): string => id.replace(MARK, '');

/** The seal a marked tool_use id carries; undefined for an unmarked id. */
export const sealInToolUseId = (id: string): string | undefined => MARK.exec(id)?.[1];
