import { useCallback, useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';

/** Screens narrower than 40rem (phones): the board's controls and the navigation bar fold up. */
export const NARROW_SCREEN_QUERY = '(max-width: 39.99rem)';

/**
 * A button that shows and hides a non-modal panel (the APG disclosure pattern, with the
 * popover's usual ways out): focus moves into the panel when it opens; Esc closes it and puts
 * focus back on the button; a press outside, or focus leaving for somewhere else, closes it.
 * The page behind stays usable, so nothing is made inert and focus is not trapped.
 * @see https://www.w3.org/WAI/ARIA/apg/patterns/disclosure/
 */
export function usePopover() {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  // Focus moves in: to the panel's first control shown (a phone's × is hidden on a wide
  // screen, where focusing it would leave focus on the button), else the panel itself.
  useEffect(() => {
    if (!open) return;
    const panel = panelRef.current;
    const controls = panel?.querySelectorAll<HTMLElement>('button:not([disabled]), a[href], input, select, [tabindex="0"]') ?? [];
    // (A document without layout, as in the unit tests, has no checkVisibility: every control counts as shown.)
    const first = [...controls].find((control) => !('checkVisibility' in control) || control.checkVisibility());
    (first ?? panel)?.focus();
  }, [open]);

  // A press anywhere else closes it (the button toggles on its own). Focus returns to the
  // button only if it was inside and the press did not land on something that takes focus.
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target instanceof Node ? event.target : null;
      if (!target || panelRef.current?.contains(target) || buttonRef.current?.contains(target)) return;
      const focusWasInside = panelRef.current?.contains(document.activeElement) ?? false;
      close(focusWasInside);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open, close]);

  const buttonProps = {
    ref: buttonRef,
    'aria-expanded': open,
    'aria-controls': panelId,
    onClick: () => {
      setOpen((was) => !was);
    },
  };

  const panelProps = {
    ref: panelRef,
    id: panelId,
    hidden: !open,
    // Focusable itself, for when it holds no control shown (focus moves to the panel then).
    tabIndex: -1,
    onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
      if (event.key !== 'Escape') return;
      // Esc inside a filled search field or an open select belongs to that control.
      if (event.defaultPrevented) return;
      event.preventDefault();
      event.stopPropagation();
      close(true);
    },
    onBlur: (event: FocusEvent<HTMLElement>) => {
      const next = event.relatedTarget;
      // Tab out of the panel (not back to its own button): it closes, focus goes on its way.
      if (next instanceof Node && !panelRef.current?.contains(next) && !buttonRef.current?.contains(next)) close(false);
    },
  };

  return { open, close, buttonProps, panelProps };
}
