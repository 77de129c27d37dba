import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';

export function discardQuestion(count: number): string {
  return count === 1 ? '1 change hasn’t been saved yet. Sign out and discard it?' : `${String(count)} changes haven’t been saved yet. Sign out and discard them?`;
}

/** Asked before signing out with changes still waiting on this device (they cannot be sent once signed out). */
export function DiscardChangesDialog({ count, onCancel, onConfirm }: { count: number; onCancel: () => void; onConfirm: () => void }) {
  return (
    <ConfirmDialog
      open={count > 0}
      onClose={onCancel}
      title="Discard unsaved changes?"
      body={discardQuestion(count)}
      cancelLabel="Keep them"
      confirmLabel="Sign out and discard"
      onConfirm={onConfirm}
    />
  );
}
