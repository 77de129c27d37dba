import { Dialog } from './dialog.tsx';
import './keyboard-help.css';

/** Every shortcut the app knows, as the help dialog lists them. */
const SHORTCUTS: readonly { keys: string; label: string; where: string }[] = [
  { keys: 'n', label: 'New task', where: 'Board' },
  { keys: '/', label: 'Search tasks', where: 'Board' },
  { keys: '?', label: 'Show keyboard shortcuts', where: 'Everywhere' },
  { keys: 'Esc', label: 'Close the dialog or the task panel', where: 'Everywhere' },
];

/** The list of keyboard shortcuts, a modal dialog (Esc closes it); keyboard-help.tsx opens it on `?`. */
export function KeyboardHelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      variant="center"
      title="Keyboard shortcuts"
      description="Single keys work when you are not typing in a field."
    >
      <table className="shortcuts">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Action</th>
            <th scope="col">Where</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map((shortcut) => (
            <tr key={shortcut.keys}>
              <td>
                <kbd>{shortcut.keys}</kbd>
              </td>
              <td>{shortcut.label}</td>
              <td>{shortcut.where}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}
