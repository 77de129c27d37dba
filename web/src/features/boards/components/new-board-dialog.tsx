import { useRef, useState, type SubmitEvent } from 'react';
import { useNavigate } from 'react-router';
import { LIMITS } from '#shared/constants.ts';
import { Button } from '#web/components/button.tsx';
import { Dialog } from '#web/components/dialog.tsx';
import { TextAreaField, TextField } from '#web/components/field.tsx';
import { FormAlert } from '#web/components/form-alert.tsx';
import { isApiError, isUnauthorized } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useCreateBoard } from '../api/create-board.ts';
import { TrelloImportForm } from './board-import-export.tsx';

/** "New board": a name and a description, or a Trello board export; the new board opens at once. */
export function NewBoardDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [trello, setTrello] = useState(false);
  const close = () => {
    setTrello(false);
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      variant="center"
      title={trello ? 'Import from Trello' : 'New board'}
      description={trello ? 'A new board from a Trello board export.' : 'Share its tasks with the people you add to it.'}
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
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const create = useCreateBoard();
  const navigate = useNavigate();

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(null);
    const trimmed = name.trim();
    if (trimmed.length < LIMITS.boardNameMin || trimmed.length > LIMITS.boardNameMax) {
      setNameError(`Give the board a name of ${LIMITS.boardNameMin} to ${LIMITS.boardNameMax} characters.`);
      nameRef.current?.focus();
      return;
    }
    setNameError(null);
    create.mutate(
      { name: trimmed, ...(description.trim() ? { description: description.trim() } : {}) },
      {
        onSuccess: (board) => {
          onClose();
          void navigate(`/boards/${encodeURIComponent(board._id)}`);
        },
        onError: (error) => {
          if (isUnauthorized(error)) return;
          const field = isApiError(error) ? error.errors.find((item) => item.field === 'name') : undefined;
          if (field) {
            setNameError(field.message);
            nameRef.current?.focus();
            return;
          }
          setFormError(errorText(error));
          requestAnimationFrame(() => alertRef.current?.focus());
        },
      },
    );
  };

  return (
    <form className="board-form" onSubmit={onSubmit} noValidate aria-label="New board">
      <FormAlert error={formError} errorRef={alertRef} className="board-form__alert" />
      <TextField
        ref={nameRef}
        label="Name"
        name="name"
        autoComplete="off"
        required
        maxLength={LIMITS.boardNameMax}
        value={name}
        error={nameError}
        onChange={(event) => {
          setName(event.target.value);
        }}
      />
      <TextAreaField
        label={
          <>
            Description<span className="field__optional"> (optional)</span>
          </>
        }
        name="description"
        rows={3}
        maxLength={LIMITS.boardDescriptionMax}
        value={description}
        onChange={(event) => {
          setDescription(event.target.value);
        }}
      />
      <div className="board-form__actions">
        <Button variant="ghost" onClick={onTrello} className="board-form__other">
          Import from Trello…
        </Button>
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" busy={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create board'}
        </Button>
      </div>
    </form>
  );
}
