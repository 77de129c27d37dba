import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';

export function discardQuestion(count: number): string {
  return plural(count, {
    one: '# change hasn’t been saved yet. Sign out and discard it?',
    other: '# changes haven’t been saved yet. Sign out and discard them?',
  });
}

/** Asked before signing out with changes still waiting on this device (they cannot be sent once signed out). */
export function DiscardChangesDialog({ count, onCancel, onConfirm }: { count: number; onCancel: () => void; onConfirm: () => void }) {
  const { t } = useLingui();
  return (
    <ConfirmDialog
      open={count > 0}
      onClose={onCancel}
      title={t`Discard unsaved changes?`}
      body={discardQuestion(count)}
      cancelLabel={t({ message: 'Keep them', comment: 'Keep the changes not saved yet (and stay signed in)' })}
      confirmLabel={t`Sign out and discard`}
      onConfirm={onConfirm}
    />
  );
}
