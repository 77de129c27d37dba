import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
import { formatNumber } from '#web/lib/locale-format.ts';
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
            {problem.errors.map(({ field, message }, i) => (
              <li key={`${field}-${String(i)}`}>
                <Trans comment="A field or row the import refused, then why">
                  <span className="import-form__field">{field}</span>: {message}
                </Trans>
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
 * shows why there is none to send (`missing`: none picked; or past the import limit) and
 * focuses the input.
 */
function useFilePick(missing: () => string) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const take = (): File | null => {
    const refusal = file === null ? missing() : file.size > LIMITS.importMaxBytes ? i18n._(IMPORT_MESSAGES.tooLarge) : null;
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
      <h2 id="board-import-heading">
        <Trans>Import and export</Trans>
      </h2>
      <div className="import-export__row">
        <div>
          <h3 className="import-export__title">
            <Trans>Export CSV</Trans>
          </h3>
          <p className="import-export__hint">
            <Trans>Every task of this board as a spreadsheet file.</Trans>
          </p>
        </div>
        <a className={buttonClass('secondary')} href={csvExportUrl(boardId)} download>
          <Trans>Export CSV</Trans>
        </a>
      </div>
      {canImportTasks(role) ? <CsvImportForm boardId={boardId} {...(onCsvImported ? { onImported: onCsvImported } : {})} /> : null}
      <div className="import-export__row">
        <div>
          <h3 className="import-export__title">
            <Trans>Import from Trello</Trans>
          </h3>
          <p className="import-export__hint">
            <Trans>Makes a new board from a Trello board export (JSON).</Trans>
          </p>
        </div>
        <Button
          onClick={() => {
            setTrelloOpen(true);
          }}
        >
          <Trans>Import from Trello…</Trans>
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
  const { t } = useLingui();
  const { error: fileError, inputRef, take, clear, onChange } = useFilePick(() => t`Choose a CSV file.`);
  const [problem, setProblem] = useState<ImportProblem | null>(null);
  /** How many tasks the last import made (its words are made as they are shown, in the language in use). */
  const [imported, setImported] = useState<number | null>(null);
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
    setImported(null);
    const file = take();
    if (file === null) return;
    upload.mutate(
      { boardId, file },
      {
        onSuccess: (counts) => {
          setImported(counts.tasks);
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
        <Trans>Import CSV</Trans>
      </h3>
      <p className="import-export__hint">
        <Trans comment="taskTitle and assignee are the names of CSV columns: keep them as they are">
          Adds tasks from a CSV file with the export’s columns (taskTitle and assignee required). Any bad row: nothing is imported.
        </Trans>
      </p>
      <ImportProblemAlert problem={problem} />
      {imported !== null ? (
        <Alert tone="success" className="import-form__alert">
          <ImportedCount count={imported} />
        </Alert>
      ) : null}
      <div className="import-form__controls">
        <TextField ref={inputRef} label={t`CSV file`} name="csv" type="file" accept=".csv,text/csv" error={fileError} onChange={onChange} />
        <Button type="submit" busy={upload.isPending}>
          {upload.isPending ? <Trans>Importing…</Trans> : <Trans>Import CSV</Trans>}
        </Button>
      </div>
    </form>
  );
}

/** "Imported 1,234 tasks.", in the language in use. */
function ImportedCount({ count }: { count: number }) {
  const { t } = useLingui();
  const shown = formatNumber(count);
  return t`${plural(count, { one: `Imported ${shown} task.`, other: `Imported ${shown} tasks.` })}`;
}

/** "Import from Trello": a Trello board export becomes a new board, which opens with a note of what came over. */
export function TrelloImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useLingui();
  return (
    <Dialog open={open} onClose={onClose} variant="center" title={t`Import from Trello`} description={t`A new board from a Trello board export.`}>
      <TrelloImportForm onClose={onClose} />
    </Dialog>
  );
}

export function TrelloImportForm({ onClose, onBack }: { onClose: () => void; onBack?: () => void }) {
  const { t } = useLingui();
  const { error: fileError, inputRef, take, onChange } = useFilePick(() => t`Choose the JSON file of a Trello board export.`);
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
    <form className="board-form" onSubmit={onSubmit} noValidate aria-label={t`Import from Trello`}>
      <p className="import-export__hint">
        <Trans comment="“Print, export and share” and “Export as JSON” are items of Trello’s board menu: use Trello’s own words for them in this language">
          In Trello, open the board’s menu: Print, export and share → Export as JSON. Open cards become tasks assigned to you, with their labels,
          checklists and comments; archived cards and lists, attachments and members stay behind.
        </Trans>
      </p>
      <ImportProblemAlert problem={problem} />
      <TextField ref={inputRef} label={t`Trello export (JSON)`} name="trello" type="file" accept=".json,application/json" error={fileError} onChange={onChange} />
      <div className="board-form__actions">
        {onBack ? (
          <Button variant="ghost" onClick={onBack} className="import-form__back">
            <Trans>Back</Trans>
          </Button>
        ) : null}
        <Button variant="ghost" onClick={onClose}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" variant="primary" busy={upload.isPending}>
          {upload.isPending ? <Trans>Importing…</Trans> : <Trans>Import board</Trans>}
        </Button>
      </div>
    </form>
  );
}
