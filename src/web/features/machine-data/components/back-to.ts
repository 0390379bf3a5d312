import { useLocation } from 'react-router';

/** Where "back" goes: the list as it was left (its address travels in the link's state), else the list. */
export function useBackTo(): string {
  const location = useLocation();
  const from = (location.state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') ? from : '/machine-data';
}

/** The link state that lets a record or unit screen go back to this exact list (filters, page, sort). */
export function backState(location: { pathname: string; search: string }): { from: string } {
  return { from: `${location.pathname}${location.search}` };
}
