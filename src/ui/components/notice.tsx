import type { ReactNode } from 'react';

/** A message box; `tone` says how serious it is. Text only: never renders HTML. */
export function Notice({
  tone,
  title,
  children,
}: {
  tone: 'error' | 'warning' | 'info';
  title: string;
  children?: ReactNode;
}) {
  return (
    <section className={`notice notice-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}
