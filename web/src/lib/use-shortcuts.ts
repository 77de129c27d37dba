import { useEffect, useRef } from 'react';

/** Key (as `KeyboardEvent.key`) → what it does. */
export type ShortcutMap = Readonly<Record<string, () => void>>;

/** True while the person is typing: single-key shortcuts must not steal their letters. */
function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['button', 'checkbox', 'radio', 'reset', 'submit', 'range', 'color', 'file', 'image'].includes(type);
}

/**
 * Single-key shortcuts on the whole document. None fires while typing in a field, with Ctrl,
 * Alt or Meta held (those belong to the browser and the system), on a repeated key, or while a
 * modal dialog is open (it has its own keys; Esc closes it). Shift is allowed: `?` needs it.
 */
export function useShortcuts(shortcuts: ShortcutMap, enabled = true): void {
  const latest = useRef(shortcuts);
  useEffect(() => {
    latest.current = shortcuts;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat || event.ctrlKey || event.altKey || event.metaKey || event.isComposing) return;
      if (isTypingTarget(event.target)) return;
      if (document.querySelector('[aria-modal="true"]')) return;
      const action = latest.current[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [enabled]);
}
