import { useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject, type SubmitEvent } from 'react';
import { isUnauthorized } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { Dialog } from './dialog.tsx';

export interface ConfirmDialogProps {
  open: boolean;
  /** The question, e.g. "Delete this label?" (the dialog's name). */
  title: ReactNode;
  /** What confirming does, and whether it can be undone (the dialog's description). */
  body: ReactNode;
  /** Says what happens, e.g. "Delete label" (never "OK" or "Yes"). */
  confirmLabel: string;
  /** The confirm button's text while the action runs; the confirm label when not given. */
  busyLabel?: string;
  cancelLabel?: string;
  /** A red confirm button, for what destroys something or cannot be undone. Default true. */
  destructive?: boolean;
  /**
   * Runs the action. A promise keeps the dialog open and busy until it settles: fulfilled, the
   * dialog closes (`onClose`), unless with `false` (the caller has shown what went wrong, e.g.
   * beside a field); rejected, the failure's words are shown in the dialog, which stays open to
   * try again or cancel (a 401 shows nothing: the session has already signed out).
   * Anything else returned: the caller closes the dialog itself (an optimistic change, a sign-out).
   */
  onConfirm: () => unknown;
  /** Cancel, Esc, a click on the overlay, and a fulfilled `onConfirm`. */
  onClose: () => void;
  /** Fields the confirmation needs (a password, the name typed again): Enter in them confirms. */
  children?: ReactNode;
  /** The confirm button refuses (e.g. until the board's name is typed). */
  confirmDisabled?: boolean;
  /** Where focus starts; Cancel, the safe choice, when not given. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** As `Dialog`'s: where focus goes on close when the opener is gone. */
  fallbackFocus?: () => HTMLElement | null;
  /** As `Dialog`'s: an element to focus on close instead of the opener. */
  returnFocus?: () => HTMLElement | null;
}

/**
 * The one confirmation box of the app: an `alertdialog` (built on `Dialog`: focus trapped, Esc
 * and Cancel close it, focus goes back to whatever opened it) with a question, what confirming
 * does, Cancel and a confirm button that names the action. While the action runs the confirm
 * button is busy and a second press does nothing; a failure is shown inside the dialog.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  if (!props.open) return null;
  return <ConfirmSurface {...props} />;
}

function ConfirmSurface({
  title,
  body,
  confirmLabel,
  busyLabel,
  cancelLabel,
  destructive = true,
  onConfirm,
  onClose,
  children,
  confirmDisabled = false,
  initialFocusRef,
  fallbackFocus,
  returnFocus,
}: ConfirmDialogProps) {
  const { t } = useLingui();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const formId = useId();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A settled action after the dialog is gone (its row deleted, the page left) changes nothing.
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const confirm = () => {
    if (running || confirmDisabled) return;
    setError(null);
    const action = onConfirm();
    if (!(action instanceof Promise)) return;
    setRunning(true);
    action.then(
      (result: unknown) => {
        if (!mounted.current) return;
        setRunning(false);
        if (result !== false) onClose();
      },
      (failure: unknown) => {
        if (!mounted.current) return;
        setRunning(false);
        if (!isUnauthorized(failure)) setError(errorText(failure, { firstField: true }));
      },
    );
  };

  // Fields or an error make a body: a form, so that Enter in a field confirms as the button does.
  const hasForm = error !== null || (children !== undefined && children !== null && children !== false);
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    confirm();
  };

  return (
    <Dialog
      open
      onClose={onClose}
      variant="center"
      role="alertdialog"
      title={title}
      description={body}
      initialFocusRef={initialFocusRef ?? cancelRef}
      {...(fallbackFocus ? { fallbackFocus } : {})}
      {...(returnFocus ? { returnFocus } : {})}
      hideCloseButton
      footer={
        <>
          <Button ref={cancelRef} variant="ghost" onClick={onClose}>
            {cancelLabel ?? t`Cancel`}
          </Button>
          <Button
            {...(hasForm ? { type: 'submit', form: formId } : { onClick: confirm })}
            variant={destructive ? 'danger' : 'primary'}
            busy={running}
            disabled={confirmDisabled}
          >
            {running && busyLabel ? busyLabel : confirmLabel}
          </Button>
        </>
      }
    >
      {hasForm ? (
        <form id={formId} className="confirm-dialog__form" onSubmit={onSubmit} noValidate>
          {error !== null ? <Alert tone="error">{error}</Alert> : null}
          {children}
        </form>
      ) : null}
    </Dialog>
  );
}
