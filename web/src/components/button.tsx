import type { ButtonHTMLAttributes, MouseEvent, ReactNode, Ref } from 'react';
import { Link, type LinkProps } from 'react-router';
import { cx } from '#web/lib/cx.ts';
import { Spinner } from './spinner.tsx';
import './button.css';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'danger-ghost';
type Size = 'sm' | 'md' | 'lg';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  size?: Size;
  /**
   * Shows a spinner and refuses clicks (and so form submission); pass the busy label as
   * children. The button stays focusable (`aria-disabled`, not `disabled`): a disabled button
   * drops keyboard focus to the page, so Esc or Tab pressed while a request is under way would
   * land nowhere (React Aria's pending buttons behave the same way).
   */
  busy?: boolean;
  icon?: ReactNode;
  block?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

export function buttonClass(variant: Variant = 'secondary', size: Size = 'md', block = false, extra?: string): string {
  return cx('btn', `btn--${variant}`, `btn--${size}`, block && 'btn--block', extra);
}

export function Button({
  variant = 'secondary',
  size = 'md',
  busy = false,
  icon,
  block = false,
  className,
  children,
  disabled,
  type = 'button',
  ref,
  onClick,
  ...rest
}: ButtonProps) {
  const refuse = (event: MouseEvent<HTMLButtonElement>) => {
    event.preventDefault();
  };
  return (
    <button
      ref={ref}
      type={type}
      className={buttonClass(variant, size, block, className)}
      disabled={disabled === true}
      aria-disabled={busy || undefined}
      aria-busy={busy || undefined}
      onClick={busy ? refuse : onClick}
      {...rest}
    >
      {busy ? <Spinner /> : icon}
      {children}
    </button>
  );
}

export interface ButtonLinkProps extends LinkProps {
  variant?: Variant;
  size?: Size;
  icon?: ReactNode;
}

/** A link styled as a button: navigation stays a link for assistive technology. */
export function ButtonLink({ variant = 'secondary', size = 'md', icon, className, children, ...rest }: ButtonLinkProps) {
  return (
    <Link className={buttonClass(variant, size, false, typeof className === 'string' ? className : undefined)} {...rest}>
      {icon}
      {children}
    </Link>
  );
}
