/** The public page's frame (public.css's .pp: the page's colours, font and full height), also drawn by the prerender. */
import type { ReactNode } from 'react';

export function PublicFrame({ children }: { children: ReactNode }) {
  return <div className="pp">{children}</div>;
}
