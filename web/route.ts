/** The page's views and their #hash URLs: #/graph, #/task/<id>, #/agent/<name>, … */
export const VIEWS = [
  { name: 'graph', label: 'Graph' },
  { name: 'team', label: 'Team' },
  { name: 'answers', label: 'Approvals' },
  { name: 'mail', label: 'Mail' },
  { name: 'cron', label: 'Cron' },
  { name: 'merges', label: 'Merges' },
  { name: 'events', label: 'Events' },
  { name: 'cost', label: 'Cost' },
] as const;

export type Route =
  | { view: (typeof VIEWS)[number]['name'] }
  | { view: 'task'; arg: string }
  | { view: 'agent'; arg: string };

const safeDecode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

export function parseRoute(hash: string): Route {
  const [view = '', arg] = hash.replace(/^#\/?/, '').split('/');
  if ((view === 'task' || view === 'agent') && arg) return { view, arg: safeDecode(arg) };
  const known = VIEWS.find((v) => v.name === view);
  return { view: known ? known.name : 'graph' };
}
