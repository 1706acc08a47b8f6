// Shared view pieces: loading, error and empty states.
import type { ReactNode } from 'react';

export function Status(props: {
  loading: boolean;
  error: string | null;
  empty: boolean;
  emptyText: ReactNode;
  children: ReactNode;
}): ReactNode {
  if (props.error !== null)
    return (
      <p className="error" role="alert">
        Could not load: {props.error}
      </p>
    );
  if (props.loading) return <p className="muted">Loading…</p>;
  if (props.empty) return <div className="empty">{props.emptyText}</div>;
  return props.children;
}
