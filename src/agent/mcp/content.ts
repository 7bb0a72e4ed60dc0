/**
 * An MCP tool result as the model gets it: text items as text; images
 * (png, jpeg, gif, webp, inline or as a resource blob) as image blocks;
 * embedded resources with text, and PDF blobs, as document blocks titled
 * with their URI; what the Messages API cannot take (audio, other blobs) as a
 * one-line placeholder naming its type. Structured content is the text when
 * there is no content.
 */
import type { MediaBlock } from '../../model/types.js';
import type { ToolOutput } from '../../tools/types.js';

interface ContentItem {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  resource?: { uri?: string; text?: string; blob?: string; mimeType?: string };
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

type Part = { text: string } | { media: MediaBlock };

function blobPart(data: string, mimeType: string | undefined, uri: string | undefined): Part {
  const type = mimeType ?? 'application/octet-stream';
  if (IMAGE_TYPES.has(type))
    return { media: { type: 'image', source: { type: 'base64', media_type: type, data } } };
  if (type === 'application/pdf')
    return {
      media: {
        type: 'document',
        source: { type: 'base64', media_type: type, data },
        ...(uri ? { title: uri } : {}),
      },
    };
  return { text: `[${type} content${uri ? ` ${uri}` : ''} not shown: the model cannot read it]` };
}

function resourcePart(resource: NonNullable<ContentItem['resource']>): Part {
  const { uri, text, blob, mimeType } = resource;
  if (text !== undefined)
    return {
      media: {
        type: 'document',
        source: { type: 'text', media_type: 'text/plain', data: text },
        ...(uri ? { title: uri } : {}),
      },
    };
  if (blob !== undefined) return blobPart(blob, mimeType, uri);
  return { text: `[resource ${uri ?? ''}]` };
}

function partOf(item: ContentItem): Part {
  if (item.type === 'text') return { text: item.text ?? '' };
  if (item.type === 'image' && item.data !== undefined) return blobPart(item.data, item.mimeType, undefined);
  if (item.type === 'resource' && item.resource) return resourcePart(item.resource);
  if (item.type === 'resource_link') return { text: `[resource ${item.uri ?? ''}]` };
  return { text: `[${item.type}${item.mimeType ? ` ${item.mimeType}` : ''} content not shown]` };
}

export function renderResult(result: Record<string, unknown>): ToolOutput {
  const content = Array.isArray(result.content) ? (result.content as ContentItem[]) : [];
  const structured =
    result.structuredContent === undefined ? [] : [{ text: JSON.stringify(result.structuredContent) }];
  const parts: Part[] = content.length > 0 ? content.map(partOf) : structured;
  const text = parts
    .flatMap((p) => ('text' in p ? [p.text] : []))
    .join('\n')
    .trim();
  const media = parts.flatMap((p) => ('media' in p ? [p.media] : []));
  const isError = result.isError === true;
  if (media.length === 0) return { content: text === '' ? '(no output)' : text, isError };
  return { content: text === '' ? `(${media.length} attachment(s))` : text, isError, media };
}
