import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Dialog } from './dialog.tsx';
import './keyboard-help.css';

const BOARD = msg({ message: 'Board', comment: 'Where a keyboard shortcut works: on a board' });
const EVERYWHERE = msg({ message: 'Everywhere', comment: 'Where a keyboard shortcut works: on every page' });

/** Every shortcut the app knows, as the help dialog lists them (`keys`: the key to press, as printed on it). */
const SHORTCUTS: readonly { id: string; keys: string | MessageDescriptor; label: MessageDescriptor; where: MessageDescriptor }[] = [
  { id: 'new', keys: 'n', label: msg`New task`, where: BOARD },
  { id: 'search', keys: '/', label: msg`Search tasks`, where: BOARD },
  { id: 'help', keys: '?', label: msg`Show keyboard shortcuts`, where: EVERYWHERE },
  { id: 'close', keys: msg({ message: 'Esc', comment: 'The Escape key, as printed on keyboards' }), label: msg`Close the dialog or the task panel`, where: EVERYWHERE },
];

/** The list of keyboard shortcuts, a modal dialog (Esc closes it); keyboard-help.tsx opens it on `?`. */
export function KeyboardHelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useLingui();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      variant="center"
      title={t`Keyboard shortcuts`}
      description={t`Single keys work when you are not typing in a field.`}
    >
      <table className="shortcuts">
        <thead>
          <tr>
            <th scope="col">
              <Trans comment="Column of the keyboard shortcuts table: the key to press">Key</Trans>
            </th>
            <th scope="col">
              <Trans comment="Column of the keyboard shortcuts table: what the key does">Action</Trans>
            </th>
            <th scope="col">
              <Trans comment="Column of the keyboard shortcuts table: where the key works">Where</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map((shortcut) => (
            <tr key={shortcut.id}>
              <td>
                <kbd>{typeof shortcut.keys === 'string' ? shortcut.keys : i18n._(shortcut.keys)}</kbd>
              </td>
              <td>{i18n._(shortcut.label)}</td>
              <td>{i18n._(shortcut.where)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}
