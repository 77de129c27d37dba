import type { ButtonHTMLAttributes } from 'react';

/** The cross, drawn for each size the app uses so its stroke stays crisp. */
const CROSS = {
  16: { path: 'm4 4 8 8m0-8-8 8', stroke: '1.6' },
  20: { path: 'm5 5 10 10M15 5 5 15', stroke: '1.8' },
} as const;

interface CloseButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'children' | 'aria-label'> {
  /** What closing does, for screen readers ("Close", "Dismiss notification"). */
  label: string;
  size: keyof typeof CROSS;
}

/** An icon-only × button, as in a dialog's header or a notification. */
export function CloseButton({ label, size, ...button }: CloseButtonProps) {
  const cross = CROSS[size];
  return (
    <button type="button" aria-label={label} {...button}>
      <svg viewBox={`0 0 ${size} ${size}`} width={size} height={size} aria-hidden="true">
        <path stroke="currentColor" strokeWidth={cross.stroke} strokeLinecap="round" d={cross.path} />
      </svg>
    </button>
  );
}
