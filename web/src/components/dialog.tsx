import { useLingui } from '@lingui/react/macro';
import { useEffect, useId, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { cx } from '#web/lib/cx.ts';
import { CloseButton } from './close-button.tsx';
import './dialog.css';

/**
 * A modal dialog per the WAI-ARIA APG pattern: focus moves in and is trapped; Esc, the close
 * button and a click on the overlay close it; focus returns to whatever opened it. Everything
 * outside is made `inert` while it is open, so neither pointer, keyboard nor screen reader can
 * reach the page behind it.
 * @see https://www.w3.org/WAI/ARIA/apg/patterns/dialog-modal/
 */
export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  /** `panel` slides in from the side; `center` is a compact confirm box. */
  variant?: 'panel' | 'center';
  /** `alertdialog` for confirmations that interrupt. */
  role?: 'dialog' | 'alertdialog';
  /** Element to focus on open; by default the first focusable element in the body. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** Where focus goes on close when the opener no longer exists (e.g. a deleted card). */
  fallbackFocus?: () => HTMLElement | null;
  /**
   * Asked first on close: an element to focus instead of the opener (e.g. the opener is about
   * to go, as the card of a task just deleted). `null`: back to the opener as usual.
   */
  returnFocus?: () => HTMLElement | null;
  /** Hides the close button (a confirm box has its own Cancel). */
  hideCloseButton?: boolean;
  closeLabel?: string;
  footer?: ReactNode;
  children?: ReactNode;
  /** Extra class on the dialog surface (e.g. a wider panel). */
  className?: string;
}

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

function focusableIn(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => !el.closest('[hidden], [inert]') && el.getAttribute('aria-hidden') !== 'true',
  );
}

export function Dialog(props: DialogProps) {
  if (!props.open) return null;
  return createPortal(<DialogSurface {...props} />, document.body);
}

function DialogSurface({
  onClose,
  title,
  description,
  variant = 'panel',
  role = 'dialog',
  initialFocusRef,
  fallbackFocus,
  returnFocus,
  hideCloseButton = false,
  closeLabel,
  footer,
  children,
  className,
}: DialogProps) {
  const { t } = useLingui();
  const rootRef = useRef<HTMLDivElement>(null);
  const surfaceRef = useRef<HTMLDivElement>(null);
  const pointerDownOnOverlay = useRef(false);
  const titleId = useId();
  const descriptionId = useId();
  // The latest callbacks, read by the mount-only effect below without re-running it.
  const onCloseRef = useRef(onClose);
  const fallbackFocusRef = useRef(fallbackFocus);
  const returnFocusRef = useRef(returnFocus);
  useEffect(() => {
    onCloseRef.current = onClose;
    fallbackFocusRef.current = fallbackFocus;
    returnFocusRef.current = returnFocus;
  });

  // Layout effect: inert and focus must be in place before the browser paints or announces.
  useLayoutEffect(() => {
    const root = rootRef.current;
    const surface = surfaceRef.current;
    if (!root || !surface) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;

    const madeInert: Element[] = [];
    for (const sibling of Array.from(document.body.children)) {
      if (sibling !== root && !sibling.hasAttribute('inert') && sibling.tagName !== 'SCRIPT') {
        sibling.setAttribute('inert', '');
        madeInert.push(sibling);
      }
    }
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';

    const target = initialFocusRef?.current ?? focusableIn(surface).find((el) => !el.dataset.dialogClose) ?? surface;
    target.focus();

    // Belt and braces for browsers without `inert`: pull stray focus back in.
    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof Node && !root.contains(event.target)) (focusableIn(surface)[0] ?? surface).focus();
    };
    document.addEventListener('focusin', onFocusIn);

    return () => {
      document.removeEventListener('focusin', onFocusIn);
      for (const el of madeInert) el.removeAttribute('inert');
      document.body.style.overflow = previousOverflow;
      // After this commit has finished: the opener may be removed in the same commit.
      const fallback = fallbackFocusRef.current;
      const instead = returnFocusRef.current;
      queueMicrotask(() => {
        const back = instead?.() ?? (opener?.isConnected ? opener : fallback?.());
        back?.focus();
      });
    };
    // Runs once per opening; initialFocusRef is read only at that moment.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      event.preventDefault();
      onCloseRef.current();
      return;
    }
    if (event.key !== 'Tab' || !surfaceRef.current) return;
    const items = focusableIn(surfaceRef.current);
    const first = items[0];
    const last = items.at(-1);
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === surfaceRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div
      ref={rootRef}
      className={cx('dialog-root', `dialog-root--${variant}`)}
      onKeyDown={onKeyDown}
      onPointerDown={(event) => {
        pointerDownOnOverlay.current = event.target === event.currentTarget;
      }}
      onClick={(event) => {
        // Only a click that both starts and ends on the overlay closes (not a text selection drag).
        if (event.target === event.currentTarget && pointerDownOnOverlay.current) onCloseRef.current();
        pointerDownOnOverlay.current = false;
      }}
      data-testid="dialog-overlay"
    >
      <div
        ref={surfaceRef}
        className={cx('dialog', `dialog--${variant}`, className)}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
      >
        <header className="dialog__header">
          <div className="dialog__titles">
            <h2 className="dialog__title" id={titleId}>
              {title}
            </h2>
            {description ? (
              <p className="dialog__description" id={descriptionId}>
                {description}
              </p>
            ) : null}
          </div>
          {hideCloseButton ? null : (
            <CloseButton
              className="dialog__close"
              label={closeLabel ?? t`Close`}
              size={20}
              data-dialog-close="true"
              onClick={() => {
                onCloseRef.current();
              }}
            />
          )}
        </header>
        {children ? <div className="dialog__body">{children}</div> : null}
        {footer ? <footer className="dialog__footer">{footer}</footer> : null}
      </div>
    </div>
  );
}
