/** Dark and light: the system's choice unless the person picked one (kept in localStorage). */
import { useEffect, useState } from 'preact/hooks';

type Theme = 'system' | 'dark' | 'light';
const NEXT: Record<Theme, Theme> = { system: 'dark', dark: 'light', light: 'system' };

function stored(): Theme {
  try {
    const t = localStorage.getItem('teamd-theme');
    return t === 'dark' || t === 'light' ? t : 'system';
  } catch {
    return 'system';
  }
}

export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(stored);
  useEffect(() => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
    try {
      localStorage.setItem('teamd-theme', theme);
    } catch {
      // private mode: the choice lasts for this page only
    }
  }, [theme]);
  return (
    <button type="button" class="theme" onClick={() => setTheme(NEXT[theme])} aria-label={`theme: ${theme} (click to change)`}>
      {theme === 'dark' ? '☾ dark' : theme === 'light' ? '☀ light' : '◐ auto'}
    </button>
  );
}
