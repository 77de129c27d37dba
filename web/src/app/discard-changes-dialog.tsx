import { useRef } from 'react';
import { Button } from '#web/components/button.tsx';
import { Dialog } from '#web/components/dialog.tsx';

export function discardQuestion(count: number): string {
  return count === 1 ? '1 change hasn’t been saved yet. Sign out and discard it?' : `${String(count)} changes haven’t been saved yet. Sign out and discard them?`;
}

/** Asked before signing out with changes still waiting on this device (they cannot be sent once signed out). */
export function DiscardChangesDialog({ count, onCancel, onConfirm }: { count: number; onCancel: () => void; onConfirm: () => void }) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open={count > 0}
      onClose={onCancel}
      variant="center"
      role="alertdialog"
      title="Discard unsaved changes?"
      description={discardQuestion(count)}
      initialFocusRef={cancelRef}
      hideCloseButton
      footer={
        <>
          <Button ref={cancelRef} onClick={onCancel}>
            Keep them
          </Button>
          <Button variant="danger" onClick={onConfirm}>
            Sign out and discard
          </Button>
        </>
      }
    />
  );
}
