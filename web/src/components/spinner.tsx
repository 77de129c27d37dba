import type { ReactNode } from 'react';
import './spinner.css';

/** Decorative: the busy state is also said in words by whoever shows the spinner. */
export function Spinner({ size = 16 }: { size?: number }) {
  return <span className="spinner" style={{ width: size, height: size }} aria-hidden="true" />;
}

/** A muted "Loading …" line with a small spinner, announced politely while a section loads. */
export function LoadingLine({ children }: { children: ReactNode }) {
  return (
    <p className="loading-line" role="status">
      <Spinner size={16} /> {children}
    </p>
  );
}
