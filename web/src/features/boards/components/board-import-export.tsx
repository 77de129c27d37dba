import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ChangeEvent, type SubmitEvent } from 'react';
import { useNavigate } from 'react-router';
import { LIMITS, type BoardRole } from '#shared/constants.ts';
import { IMPORT_MESSAGES } from '#shared/import-messages.ts';
import { canImportTasks } from '#shared/rights.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button, buttonClass } from '#web/components/button.tsx';
import { Dialog } from '#web/components/dialog.tsx';
import { TextField } from '#web/components/field.tsx';
import { useNotices } from '#web/components/notices.tsx';
import { isApiError, isUnauthorized } from '#web/lib/api-client.ts';
import { csvExportUrl, importCsv, useImportTrello } from '../api/import-board.ts';
import { boardKeys } from '../api/query-keys.ts';
import './boards.css';
import { i18n } from '@lingui/core';

/** What a failed import shows: the server's message and, when it sent them, each field or row it refused. */
export interface ImportProblem {
  message: string;
  errors: readonly { field: string; message: string }[];
}

export function problemOf(error: unknown): ImportProblem {
  if (!isApiError(error)) return { message: String(error), errors: [] };
  return { message: error.message, errors: error.errors };
}

/** The refusal, focused as it appears so keyboard and screen-reader users land on it. */
function ImportProblemAlert({ problem }: { problem: ImportProblem | null }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (problem !== null) ref.current?.focus();
  }, [problem]);
  if (problem === null) return null;
  return (
    <div ref={ref} tabIndex={-1} className="import-form__alert">
      <Alert tone="error">
        <p>{problem.message}</p>
        {problem.errors.length > 0 ? (
          <ul className="import-form__errors">
            {problem.errors.map((e, i) => (
              <li key={`${e.field}-${String(i)}`}>
                <span className="import-form__field">{e.field}</span>: {e.message}
              </li>
            ))}
          </ul>
        ) : null}
      </Alert>
    </div>
  );
}

/**
 * A file input's state: the picked file and its error. `take()` gives the file to send, or
 * shows why there is none to send (none picked, or past the import limit) and focuses the input.
 */
function useFilePick(missing: string) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const take = (): File | null => {
    const refusal = file === null ? missing : file.size > LIMITS.importMaxBytes ? i18n._(IMPORT_MESSAGES.tooLarge) : null;
    setError(refusal);
    if (refusal !== null) inputRef.current?.focus();
    return refusal === null ? file : null;
  };
  const clear = () => {
    setFile(null);
    if (inputRef.current) inputRef.current.value = '';
  };
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    setFile(event.target.files?.[0] ?? null);
    setError(null);
  };
  return { error, inputRef, take, clear, onChange };
}

/**
 * The board settings' "Import and export": everyone on the board may download its CSV; admins
 * and members import a CSV file into it; anyone may start a new board from a Trello export.
 */
export function ImportExportSection({ boardId, role, onCsvImported }: { boardId: string; role: BoardRole; onCsvImported?: () => void }) {
  const [trelloOpen, setTrelloOpen] = useState(false);
  return (
    <section className="settings-section" aria-labelledby="board-import-heading">
      <h2 id="board-import-heading">Import and export</h2>
      <div className="import-export__row">
        <div>
          <h3 className="import-export__title">Export CSV</h3>
          <p className="import-export__hint">Every task of this board as a spreadsheet file.</p>
        </div>
        <a className={buttonClass('secondary')} href={csvExportUrl(boardId)} download>
          Export CSV
        </a>
      </div>
      {canImportTasks(role) ? <CsvImportForm boardId={boardId} {...(onCsvImported ? { onImported: onCsvImported } : {})} /> : null}
      <div className="import-export__row">
        <div>
          <h3 className="import-export__title">Import from Trello</h3>
          <p className="import-export__hint">Makes a new board from a Trello board export (JSON).</p>
        </div>
        <Button
          onClick={() => {
            setTrelloOpen(true);
          }}
        >
          Import from Trello…
        </Button>
      </div>
      <TrelloImportDialog
        open={trelloOpen}
        onClose={() => {
          setTrelloOpen(false);
        }}
      />
    </section>
  );
}

function CsvImportForm({ boardId, onImported }: { boardId: string; onImported?: () => void }) {
  const { error: fileError, inputRef, take, clear, onChange } = useFilePick('Choose a CSV file.');
  const [problem, setProblem] = useState<ImportProblem | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const upload = useMutation({
    mutationFn: importCsv,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: boardKeys.all });
      onImported?.();
    },
  });

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(null);
    setDone(null);
    const file = take();
    if (file === null) return;
    upload.mutate(
      { boardId, file },
      {
        onSuccess: (counts) => {
          setDone(`Imported ${counts.tasks.toLocaleString('en')} ${counts.tasks === 1 ? 'task' : 'tasks'}.`);
          clear();
        },
        onError: (error) => {
          if (isUnauthorized(error)) return;
          setProblem(problemOf(error));
        },
      },
    );
  };

  return (
    <form className="import-form" onSubmit={onSubmit} noValidate aria-labelledby="csv-import-heading">
      <h3 id="csv-import-heading" className="import-export__title">
        Import CSV
      </h3>
      <p className="import-export__hint">
        Adds tasks from a CSV file with the export’s columns (taskTitle and assignee required). Any bad row: nothing is imported.
      </p>
      <ImportProblemAlert problem={problem} />
      {done ? (
        <Alert tone="success" className="import-form__alert">
          {done}
        </Alert>
      ) : null}
      <div className="import-form__controls">
        <TextField ref={inputRef} label="CSV file" name="csv" type="file" accept=".csv,text/csv" error={fileError} onChange={onChange} />
        <Button type="submit" busy={upload.isPending}>
          {upload.isPending ? 'Importing…' : 'Import CSV'}
        </Button>
      </div>
    </form>
  );
}

/** "Import from Trello": a Trello board export becomes a new board, which opens with a note of what came over. */
export function TrelloImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} variant="center" title="Import from Trello" description="A new board from a Trello board export.">
      <TrelloImportForm onClose={onClose} />
    </Dialog>
  );
}

export function TrelloImportForm({ onClose, onBack }: { onClose: () => void; onBack?: () => void }) {
  const { error: fileError, inputRef, take, onChange } = useFilePick('Choose the JSON file of a Trello board export.');
  const [problem, setProblem] = useState<ImportProblem | null>(null);
  const upload = useImportTrello();
  const navigate = useNavigate();
  const { notify } = useNotices();

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(null);
    const file = take();
    if (file === null) return;
    upload.mutate(file, {
      onSuccess: ({ board, message }) => {
        onClose();
        notify('success', message);
        void navigate(`/boards/${encodeURIComponent(board._id)}`);
      },
      onError: (error) => {
        if (isUnauthorized(error)) return;
        setProblem(problemOf(error));
      },
    });
  };

  return (
    <form className="board-form" onSubmit={onSubmit} noValidate aria-label="Import from Trello">
      <p className="import-export__hint">
        In Trello, open the board’s menu: Print, export and share → Export as JSON. Open cards become tasks assigned to you, with their labels,
        checklists and comments; archived cards and lists, attachments and members stay behind.
      </p>
      <ImportProblemAlert problem={problem} />
      <TextField ref={inputRef} label="Trello export (JSON)" name="trello" type="file" accept=".json,application/json" error={fileError} onChange={onChange} />
      <div className="board-form__actions">
        {onBack ? (
          <Button variant="ghost" onClick={onBack} className="import-form__back">
            Back
          </Button>
        ) : null}
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" busy={upload.isPending}>
          {upload.isPending ? 'Importing…' : 'Import board'}
        </Button>
      </div>
    </form>
  );
}
