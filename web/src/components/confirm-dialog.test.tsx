import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '#web/lib/api-client.ts';
import { ConfirmDialog, type ConfirmDialogProps } from './confirm-dialog.tsx';

/** A page with the button that opens the dialog, as every screen that asks has one. */
function Page({ onConfirm, children, ...rest }: Partial<ConfirmDialogProps> & { onConfirm: () => unknown; children?: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setOpen(true);
        }}
      >
        Delete…
      </button>
      <ConfirmDialog
        title="Delete this thing?"
        body="It goes for everyone. This cannot be undone."
        confirmLabel="Delete thing"
        {...rest}
        open={open}
        onClose={() => {
          setOpen(false);
        }}
        onConfirm={onConfirm}
      >
        {children}
      </ConfirmDialog>
    </>
  );
}

/** The app's messages, as the app's providers give them. */
function Speaking({ children }: { children: ReactNode }) {
  return <I18nProvider i18n={i18n}>{children}</I18nProvider>;
}

async function openDialog(props: Parameters<typeof Page>[0]) {
  const user = userEvent.setup();
  render(<Page {...props} />, { wrapper: Speaking });
  const opener = screen.getByRole('button', { name: 'Delete…' });
  await user.click(opener);
  const dialog = screen.getByRole('alertdialog', { name: 'Delete this thing?' });
  return { user, opener, dialog };
}

/** A promise settled by the test, to see the dialog while the action runs. */
function deferred() {
  let resolve: (value: unknown) => void = () => undefined;
  let reject: (reason: unknown) => void = () => undefined;
  const promise = new Promise((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe('ConfirmDialog', () => {
  it('is a modal alertdialog named by its title, described by its body, with focus on Cancel', async () => {
    const { dialog } = await openDialog({ onConfirm: vi.fn() });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleDescription('It goes for everyone. This cannot be undone.');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(within(dialog).getByRole('button', { name: 'Delete thing' })).toHaveClass('btn--danger');
  });

  it('Cancel and Esc close it without acting, and focus goes back to the opener', async () => {
    const onConfirm = vi.fn();
    const { user, opener, dialog } = await openDialog({ onConfirm });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await waitFor(() => {
      expect(opener).toHaveFocus();
    });

    await user.click(opener);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await waitFor(() => {
      expect(opener).toHaveFocus();
    });
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('is busy while the action runs (a second press does nothing), then closes', async () => {
    const action = deferred();
    const onConfirm = vi.fn(() => action.promise);
    const { user, opener, dialog } = await openDialog({ onConfirm, busyLabel: 'Deleting…' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete thing' }));
    const busy = within(dialog).getByRole('button', { name: 'Deleting…' });
    expect(busy).toHaveAttribute('aria-busy', 'true');
    await user.click(busy);
    expect(onConfirm).toHaveBeenCalledTimes(1);

    action.resolve(undefined);
    await waitFor(() => {
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    });
    await waitFor(() => {
      expect(opener).toHaveFocus();
    });
  });

  it('shows a failure in the dialog and stays open to try again', async () => {
    let attempt = 0;
    const onConfirm = vi.fn(() => {
      attempt += 1;
      return attempt === 1
        ? Promise.reject(new ApiError(409, 'LAST_ADMIN', 'A board needs an admin.'))
        : Promise.resolve();
    });
    const { user, dialog } = await openDialog({ onConfirm });
    await user.click(within(dialog).getByRole('button', { name: 'Delete thing' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('A board needs an admin.');
    const confirm = within(dialog).getByRole('button', { name: 'Delete thing' });
    expect(confirm).not.toHaveAttribute('aria-busy');

    await user.click(confirm);
    await waitFor(() => {
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    });
    expect(onConfirm).toHaveBeenCalledTimes(2);
  });

  it('says nothing of a 401: the session has signed out already', async () => {
    const { user, dialog } = await openDialog({ onConfirm: () => Promise.reject(new ApiError(401, 'UNAUTHORIZED', 'Please sign in.')) });
    await user.click(within(dialog).getByRole('button', { name: 'Delete thing' }));
    await waitFor(() => {
      expect(within(dialog).getByRole('button', { name: 'Delete thing' })).not.toHaveAttribute('aria-busy');
    });
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('stays open when the action answers false (it showed why itself)', async () => {
    const { user, dialog } = await openDialog({ onConfirm: () => Promise.resolve(false) });
    await user.click(within(dialog).getByRole('button', { name: 'Delete thing' }));
    await waitFor(() => {
      expect(within(dialog).getByRole('button', { name: 'Delete thing' })).not.toHaveAttribute('aria-busy');
    });
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });

  it('leaves closing to the caller when the action returns no promise', async () => {
    const onConfirm = vi.fn(() => undefined);
    const { user, dialog } = await openDialog({ onConfirm });
    await user.click(within(dialog).getByRole('button', { name: 'Delete thing' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });

  it('with a field: refuses while disabled, and Enter in the field confirms', async () => {
    function Typed() {
      const [typed, setTyped] = useState('');
      return (
        <Page onConfirm={onConfirm} confirmDisabled={typed !== 'yes'} cancelLabel="Keep it" destructive={false}>
          <label>
            Type yes
            <input
              value={typed}
              onChange={(event) => {
                setTyped(event.target.value);
              }}
            />
          </label>
        </Page>
      );
    }
    const onConfirm = vi.fn(() => Promise.resolve());
    const user = userEvent.setup();
    render(<Typed />, { wrapper: Speaking });
    await user.click(screen.getByRole('button', { name: 'Delete…' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this thing?' });
    expect(within(dialog).getByRole('button', { name: 'Keep it' })).toHaveFocus();
    const confirm = within(dialog).getByRole('button', { name: 'Delete thing' });
    expect(confirm).toBeDisabled();
    expect(confirm).toHaveClass('btn--primary');
    await user.type(within(dialog).getByLabelText('Type yes'), 'yes{Enter}');
    await waitFor(() => {
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    });
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
