import './spinner.css';

/** Decorative: the busy state is also said in words by whoever shows the spinner. */
export function Spinner({ size = 16 }: { size?: number }) {
  return <span className="spinner" style={{ width: size, height: size }} aria-hidden="true" />;
}
