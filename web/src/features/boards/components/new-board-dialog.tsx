import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState, type SubmitEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '#web/components/button.tsx';
import { Dialog } from '#web/components/dialog.tsx';
import { FormAlert } from '#web/components/form-alert.tsx';
import { isUnauthorized } from '#web/lib/api-client.ts';
import { useCreateBoard } from '../api/create-board.ts';
import { BoardFields, useBoardForm } from './board-form.tsx';
import { TrelloImportForm } from './board-import-export.tsx';

/** "New board": a name and a description, or a Trello board export; the new board opens at once. */
export function NewBoardDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [trello, setTrello] = useState(false);
  const { t } = useLingui();
  const close = () => {
    setTrello(false);
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      variant="center"
      title={trello ? t`Import from Trello` : t`New board`}
      description={trello ? t`A new board from a Trello board export.` : t`Share its tasks with the people you add to it.`}
    >
      {trello ? (
        <TrelloImportForm
          onClose={close}
          onBack={() => {
            setTrello(false);
          }}
        />
      ) : (
        <NewBoardForm
          onClose={close}
          onTrello={() => {
            setTrello(true);
          }}
        />
      )}
    </Dialog>
  );
}

function NewBoardForm({ onClose, onTrello }: { onClose: () => void; onTrello: () => void }) {
  const form = useBoardForm({ name: '', description: '' });
  const alertRef = useRef<HTMLDivElement>(null);
  const create = useCreateBoard();
  const navigate = useNavigate();
  const { t } = useLingui();

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = form.check();
    if (!values) return;
    create.mutate(
      { name: values.name, ...(values.description ? { description: values.description } : {}) },
      {
        onSuccess: (board) => {
          onClose();
          void navigate(`/boards/${encodeURIComponent(board._id)}`);
        },
        onError: (error) => {
          if (isUnauthorized(error)) return;
          if (form.refused(error) !== null) requestAnimationFrame(() => alertRef.current?.focus());
        },
      },
    );
  };

  return (
    <form className="board-form" onSubmit={onSubmit} noValidate aria-label={t`New board`}>
      <FormAlert error={form.formError} errorRef={alertRef} className="board-form__alert" />
      <BoardFields {...form.fields} descriptionOptional />
      <div className="board-form__actions">
        <Button variant="ghost" onClick={onTrello} className="board-form__other">
          <Trans>Import from Trello…</Trans>
        </Button>
        <Button variant="ghost" onClick={onClose}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" variant="primary" busy={create.isPending}>
          {create.isPending ? <Trans>Creating…</Trans> : <Trans>Create board</Trans>}
        </Button>
      </div>
    </form>
  );
}
