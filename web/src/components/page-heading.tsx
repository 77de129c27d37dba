import { useEffect, useRef, useState, type ReactNode, type Ref } from 'react';
import { useLocation } from 'react-router';
import { cx } from '#web/lib/cx.ts';

/**
 * A page's `h1`. After an in-app navigation it takes focus, so keyboard and screen-reader
 * users start at the new page's title instead of wherever the old page left them.
 */
export function PageHeading({
  children,
  className,
  id,
  ref,
  dir,
}: {
  children: ReactNode;
  className?: string;
  id?: string;
  ref?: Ref<HTMLHeadingElement>;
  /** `auto` when the heading is a name a person gave (a board, a task), in whatever script. */
  dir?: 'auto' | undefined;
}) {
  const innerRef = useRef<HTMLHeadingElement>(null);
  const { key } = useLocation();
  // Decided once, on mount: later changes of the URL on the same page (filters) keep focus.
  const [focusOnMount] = useState(() => key !== 'default');
  useEffect(() => {
    if (focusOnMount) innerRef.current?.focus();
  }, [focusOnMount]);

  return (
    <h1
      ref={(el) => {
        innerRef.current = el;
        if (typeof ref === 'function') ref(el);
        else if (ref) ref.current = el;
      }}
      id={id}
      dir={dir}
      className={cx('page-heading', className)}
      tabIndex={-1}
    >
      {children}
    </h1>
  );
}
