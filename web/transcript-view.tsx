/**
 * A transcript: the model's text, each tool call folded (its summary shown,
 * input and result inside), thinking folded to its size. With "follow" on,
 * the view keeps to the newest entry as the server pushes more.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { TranscriptEntry, WireTranscript } from '../src/web/wire.js';

function Entry({ e }: { e: TranscriptEntry }) {
  switch (e.kind) {
    case 'header':
      return <div class="tr-header">{e.text}</div>;
    case 'prompt':
      return (
        <details class="tr-prompt">
          <summary>{`> ${e.text.split('\n').find((l) => l.trim()) ?? ''}`}</summary>
          <pre>{e.text}</pre>
        </details>
      );
    case 'text':
      return <pre class="tr-text">{e.text}</pre>;
    case 'thinking':
      return (
        <details class="tr-thinking">
          <summary>{e.words === null ? '∴ thinking (redacted)' : `∴ thinking (${e.words} words)`}</summary>
          <p class="muted">thinking is kept out of the page; the transcript file has it</p>
        </details>
      );
    case 'tool':
      return (
        <details class={e.isError ? 'tr-tool error' : 'tr-tool'} data-tool={e.name}>
          <summary>
            <b>{`● ${e.name}`}</b> {e.summary}
            {e.result === null ? ' …' : e.isError ? ' ✘' : ''}
          </summary>
          <pre class="tr-input">{e.input}</pre>
          {e.result !== null && <pre class="tr-result">{e.result}</pre>}
        </details>
      );
    case 'note':
      return <div class={`tr-note tone-${e.tone}`}>{e.text}</div>;
  }
}

export function TranscriptView({ transcript, follow }: { transcript: WireTranscript | null; follow: boolean }) {
  const end = useRef<HTMLDivElement>(null);
  const count = transcript?.entries.length ?? 0;
  useEffect(() => {
    if (follow) end.current?.scrollIntoView({ block: 'end' });
  }, [count, follow]);
  if (!transcript) return <p class="muted">loading the transcript…</p>;
  if (!transcript.session) return <p class="muted">{`no transcript for ${transcript.agent} yet`}</p>;
  return (
    <section class="transcript" aria-label={transcript.title} data-session={transcript.session}>
      <h3>{transcript.title}</h3>
      {transcript.entries.map((e, i) => (
        <Entry key={i} e={e} />
      ))}
      <div ref={end} />
    </section>
  );
}
