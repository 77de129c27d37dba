import { lazy, Suspense, useState } from 'react';
import { useShortcuts } from '#web/lib/use-shortcuts.ts';

// The dialog (and the dialog component it uses) loads the first time someone presses `?`, so
// pages that never show a dialog, like /login, do not download it.
const KeyboardHelpDialog = lazy(() => import('./keyboard-help-dialog.tsx').then((m) => ({ default: m.KeyboardHelpDialog })));

/**
 * `?` anywhere opens the list of keyboard shortcuts (a modal dialog; Esc closes it). Mounted
 * once, in the app's layout.
 */
export function KeyboardHelp() {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  useShortcuts({
    '?': () => {
      setWanted(true);
      setOpen(true);
    },
  });
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <KeyboardHelpDialog
        open={open}
        onClose={() => {
          setOpen(false);
        }}
      />
    </Suspense>
  );
}
