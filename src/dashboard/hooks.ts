import { useEffect, useRef, useState } from 'react';
import { useStdout } from 'ink';
import type { LoggedEvent } from '../observe/types.js';
import type { DashboardState, TeamSource } from './types.js';

/** The terminal's size, following resizes. */
export function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = () => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}

/**
 * The team's state, re-read when the source says the files changed. One read
 * at a time: a change during a read schedules exactly one more. `version`
 * counts reads, so views of other files (a transcript) can follow along.
 */
export function useTeamState(source: TeamSource, onFresh?: (events: LoggedEvent[]) => void) {
  const [state, setState] = useState<DashboardState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const fresh = useRef(onFresh);
  fresh.current = onFresh;
  useEffect(() => {
    let alive = true;
    let loading = false;
    let again = false;
    const load = async (): Promise<void> => {
      if (loading) {
        again = true;
        return;
      }
      loading = true;
      try {
        const next = await source.load();
        if (!alive) return;
        setState(next);
        setError(null);
        setVersion((v) => v + 1);
        if (next.fresh.length) fresh.current?.(next.fresh);
      } catch (err) {
        if (alive) setError((err as Error).message);
      } finally {
        loading = false;
        if (again && alive) {
          again = false;
          void load();
        }
      }
    };
    void load();
    const stop = source.watch(() => void load());
    return () => {
      alive = false;
      stop();
    };
  }, [source]);
  return { state, error, version };
}
