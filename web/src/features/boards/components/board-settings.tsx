import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useRef, useState, type ReactNode, type SubmitEvent } from 'react';
import { BOARD_ROLES, type BoardRole } from '#shared/constants.ts';
import { canChangeBoard, canLeave } from '#shared/rights.ts';
import type { Member } from '#shared/schemas/boards.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { EmailField, SelectField, TextField } from '#web/components/field.tsx';
import { isApiError, isUnauthorized } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { initialsOf } from '#web/lib/initials.ts';
import { formatNumber } from '#web/lib/locale-format.ts';
import { displayName } from '#web/lib/product-names.ts';
import { useAddMember, useRemoveMember, useUpdateMember } from '../api/board-members.ts';
import { useDeleteBoard } from '../api/delete-board.ts';
import type { BoardDetail } from '../api/get-board.ts';
import { useUpdateBoard } from '../api/update-board.ts';
import { BoardFields, useBoardForm } from './board-form.tsx';
import { ImportExportSection } from './board-import-export.tsx';
import './boards.css';

const ROLE_LABELS: Record<BoardRole, MessageDescriptor> = {
  admin: msg({ message: 'Admin', comment: 'A role on a board: manages the board and its members' }),
  member: msg({ message: 'Member', comment: 'A role on a board: creates and changes tasks' }),
  viewer: msg({ message: 'Viewer', comment: 'A role on a board: reads and comments' }),
};

/** The server's words for a refused change (LAST_ADMIN, ALREADY_MEMBER, PERSONAL_BOARD, 429 …). */
const refusal = (error: unknown) => errorText(error, { retryHint: true });

interface SettingsProps {
  detail: BoardDetail;
  /** The viewer's address: their own row offers "Leave" instead of "Remove". */
  me: string;
  /** After the viewer left or deleted the board (the page goes elsewhere). */
  onGone: (how: 'left' | 'deleted') => void;
  /** The board's labels section (another feature's, composed by the app), after the members. */
  labels?: ReactNode;
  /** After a CSV import added tasks (the app refreshes the board's task lists). */
  onCsvImported?: () => void;
}

/**
 * A board's settings. Admins rename and describe it, manage its members and may delete it;
 * everyone else reads the same and may leave. The server decides every change: what it refuses
 * is shown beside the control that asked.
 */
export function BoardSettings({ detail, me, onGone, labels, onCsvImported }: SettingsProps) {
  const { board, members } = detail;
  // May rename, describe, share and delete it: an admin of a shared board (shared/rights.ts).
  const manages = canChangeBoard(board);
  const { i18n } = useLingui();
  const memberCount = formatNumber(members.length);
  return (
    <div className="board-settings">
      {board.personal ? (
        <Alert tone="info">
          <Trans>Your personal board is yours alone: it cannot be renamed, shared, left or deleted.</Trans>
        </Alert>
      ) : null}
      <section className="settings-section" aria-labelledby="board-about-heading">
        <h2 id="board-about-heading">
          <Trans>About this board</Trans>
        </h2>
        {manages ? (
          <AboutForm key={`${board.name}\u0000${board.description}`} boardId={board._id} name={board.name} description={board.description} />
        ) : (
          <dl className="board-settings__about">
            <div>
              <dt>
                <Trans comment="A board’s name">Name</Trans>
              </dt>
              <dd>{displayName(board.name)}</dd>
            </div>
            <div>
              <dt>
                <Trans>Description</Trans>
              </dt>
              <dd>
                {board.description || (
                  <span className="board-settings__none">
                    <Trans comment="A board without a description">None</Trans>
                  </span>
                )}
              </dd>
            </div>
            <div>
              <dt>
                <Trans>Your role</Trans>
              </dt>
              <dd>{i18n._(ROLE_LABELS[board.role])}</dd>
            </div>
          </dl>
        )}
      </section>

      <section className="settings-section" aria-labelledby="board-members-heading">
        <h2 id="board-members-heading">
          <Trans>Members ({memberCount})</Trans>
        </h2>
        <MemberList boardId={board._id} members={members} admin={manages} me={me} onLeft={() => { onGone('left'); }} />
        {manages ? <AddMemberForm boardId={board._id} /> : null}
      </section>

      {labels}

      <ImportExportSection boardId={board._id} role={board.role} {...(onCsvImported ? { onCsvImported } : {})} />

      {!canLeave(board) ? null : (
        <section className="settings-section settings-section--danger" aria-labelledby="board-leave-heading">
          <h2 id="board-leave-heading">
            <Trans>Leave or delete</Trans>
          </h2>
          <div className="board-settings__danger-actions">
            <LeaveBoard boardId={board._id} boardName={board.name} me={me} onLeft={() => { onGone('left'); }} />
            {manages ? <DeleteBoard boardId={board._id} boardName={board.name} onDeleted={() => { onGone('deleted'); }} /> : null}
          </div>
        </section>
      )}
    </div>
  );
}

function AboutForm({ boardId, name, description }: { boardId: string; name: string; description: string }) {
  const [saved, setSaved] = useState(false);
  const form = useBoardForm({ name, description }, { onEdit: () => { setSaved(false); } });
  const update = useUpdateBoard(boardId);
  const { t } = useLingui();

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved(false);
    const values = form.check();
    if (!values) return;
    update.mutate(values, {
      onSuccess: () => {
        setSaved(true);
      },
      onError: (failure) => {
        if (!isUnauthorized(failure)) form.refused(failure, { retryHint: true });
      },
    });
  };

  return (
    <form className="board-form" onSubmit={onSubmit} noValidate aria-label={t`About this board`}>
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      <BoardFields {...form.fields} />
      <div className="board-form__actions board-form__actions--start">
        <Button type="submit" variant="primary" busy={update.isPending}>
          {update.isPending ? <Trans>Saving…</Trans> : <Trans>Save</Trans>}
        </Button>
        <p className="board-form__saved" role="status">
          {saved ? <Trans>Saved.</Trans> : ''}
        </p>
      </div>
    </form>
  );
}

function MemberList({ boardId, members, admin, me, onLeft }: { boardId: string; members: readonly Member[]; admin: boolean; me: string; onLeft: () => void }) {
  return (
    <ul className="member-list">
      {members.map((member) => (
        <MemberRow key={member.email} boardId={boardId} member={member} admin={admin} self={member.email === me} onLeft={onLeft} />
      ))}
    </ul>
  );
}

function MemberRow({ boardId, member, admin, self, onLeft }: { boardId: string; member: Member; admin: boolean; self: boolean; onLeft: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateMember(boardId);
  const remove = useRemoveMember(boardId);
  const errorId = useId();
  const { t, i18n } = useLingui();
  const { email } = member;
  const name = member.fullName ?? t({ message: 'Invited', comment: 'Shown instead of the name of someone invited to a board who has no account yet' });
  return (
    <li className="member-row">
      <span className="member-row__avatar" aria-hidden="true" data-status={member.status}>
        {initialsOf(member)}
      </span>
      <span className="member-row__who">
        <span className={member.fullName ? 'member-row__name' : 'member-row__name member-row__name--invited'}>
          {self ? t({ message: `${name} (you)`, comment: 'The viewer’s own row in a board’s member list' }) : name}
        </span>
        <span className="member-row__email" dir="auto">
          {member.email}
        </span>
      </span>
      {admin ? (
        <SelectField
          label={
            <span className="visually-hidden">
              <Trans>Role of {email}</Trans>
            </span>
          }
          fieldClassName="member-row__role"
          value={member.role}
          disabled={update.isPending}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => {
            setError(null);
            update.mutate(
              { email: member.email, role: event.target.value as BoardRole },
              {
                onError: (failure) => {
                  if (!isUnauthorized(failure)) setError(refusal(failure));
                },
              },
            );
          }}
        >
          {BOARD_ROLES.map((role) => (
            <option key={role} value={role}>
              {i18n._(ROLE_LABELS[role])}
            </option>
          ))}
        </SelectField>
      ) : (
        <span className="member-row__role-text">{i18n._(ROLE_LABELS[member.role])}</span>
      )}
      {admin && !self ? (
        <Button
          size="sm"
          variant="danger-ghost"
          busy={remove.isPending}
          aria-label={t`Remove ${email}`}
          onClick={() => {
            setError(null);
            remove.mutate(
              { email: member.email },
              {
                onError: (failure) => {
                  if (!isUnauthorized(failure)) setError(refusal(failure));
                },
              },
            );
          }}
        >
          <Trans comment="Takes a member off the board">Remove</Trans>
        </Button>
      ) : null}
      {self && admin ? (
        <Button
          size="sm"
          variant="ghost"
          busy={remove.isPending}
          onClick={() => {
            setError(null);
            remove.mutate(
              { email: member.email, leaving: true },
              {
                onSuccess: onLeft,
                onError: (failure) => {
                  if (!isUnauthorized(failure)) setError(refusal(failure));
                },
              },
            );
          }}
        >
          <Trans comment="The viewer leaves the board">Leave</Trans>
        </Button>
      ) : null}
      {error ? (
        <p className="member-row__error field__error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
    </li>
  );
}

function AddMemberForm({ boardId }: { boardId: string }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<BoardRole>('member');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const add = useAddMember(boardId);
  const emailRef = useRef<HTMLInputElement>(null);
  const { t, i18n } = useLingui();

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setAdded(null);
    const address = email.trim();
    if (!address.includes('@')) {
      setEmailError(t`Enter the e-mail address of the person to add.`);
      emailRef.current?.focus();
      return;
    }
    setEmailError(null);
    add.mutate(
      { email: address, role },
      {
        onSuccess: (member) => {
          setEmail('');
          const who = member.email;
          setAdded(member.status === 'invited' ? t`Invited ${who}: they join when they sign up.` : t`Added ${who}.`);
          emailRef.current?.focus();
        },
        onError: (failure) => {
          if (isUnauthorized(failure)) return;
          if (isApiError(failure) && (failure.code === 'ALREADY_MEMBER' || failure.errors.some((item) => item.field === 'email'))) {
            setEmailError(failure.errors.find((item) => item.field === 'email')?.message ?? failure.message);
            emailRef.current?.focus();
            return;
          }
          setError(refusal(failure));
        },
      },
    );
  };

  return (
    <form className="add-member" onSubmit={onSubmit} noValidate aria-label={t`Add a member`}>
      <h3 className="add-member__title">
        <Trans>Add a member</Trans>
      </h3>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="add-member__row">
        <EmailField
          ref={emailRef}
          label={t`E-mail address`}
          name="email"
          autoComplete="off"
          required
          value={email}
          error={emailError}
          fieldClassName="add-member__email"
          onChange={(event) => {
            setEmail(event.target.value);
          }}
        />
        <SelectField
          label={t({ message: 'Role', comment: 'A member’s role on the board' })}
          name="role"
          value={role}
          onChange={(event) => {
            setRole(event.target.value as BoardRole);
          }}
        >
          {BOARD_ROLES.map((option) => (
            <option key={option} value={option}>
              {i18n._(ROLE_LABELS[option])}
            </option>
          ))}
        </SelectField>
        <Button type="submit" variant="primary" className="add-member__submit" busy={add.isPending}>
          {add.isPending ? <Trans>Adding…</Trans> : <Trans comment="Adds the person to the board">Add</Trans>}
        </Button>
      </div>
      <p className="add-member__hint">
        <Trans>
          Admins manage the board and its members; members create and change tasks; viewers read and comment. They get an e-mail; someone without
          an account is invited until they sign up.
        </Trans>
      </p>
      <p className="board-form__saved" role="status">
        {added ?? ''}
      </p>
    </form>
  );
}

function LeaveBoard({ boardId, boardName, me, onLeft }: { boardId: string; boardName: string; me: string; onLeft: () => void }) {
  const [open, setOpen] = useState(false);
  const remove = useRemoveMember(boardId);
  const { t } = useLingui();
  // Isolated in the sentence: the name reads in its own direction (decision 180).
  const name = <bdi>{displayName(boardName)}</bdi>;
  return (
    <>
      <Button
        variant="secondary"
        aria-haspopup="dialog"
        onClick={() => {
          setOpen(true);
        }}
      >
        <Trans>Leave board</Trans>
      </Button>
      <ConfirmDialog
        open={open}
        onClose={() => {
          setOpen(false);
        }}
        title={t`Leave this board?`}
        body={<Trans>You will no longer see the tasks of “{name}”, except those assigned to you.</Trans>}
        confirmLabel={t`Leave board`}
        onConfirm={() => remove.mutateAsync({ email: me, leaving: true }).then(onLeft)}
      />
    </>
  );
}

function DeleteBoard({ boardId, boardName, onDeleted }: { boardId: string; boardName: string; onDeleted: () => void }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const remove = useDeleteBoard();
  const { t } = useLingui();
  const nameText = displayName(boardName);
  // Isolated in the sentence: the name reads in its own direction (decision 180).
  const name = <bdi>{nameText}</bdi>;
  // The name as stored, or as this page shows it (a product's own name in the reader's language).
  const matches = typed.trim() === boardName || typed.trim() === nameText;
  return (
    <>
      <Button
        variant="danger"
        aria-haspopup="dialog"
        onClick={() => {
          setTyped('');
          setOpen(true);
        }}
      >
        <Trans>Delete board</Trans>
      </Button>
      <ConfirmDialog
        open={open}
        onClose={() => {
          setOpen(false);
        }}
        title={t`Delete this board?`}
        body={<Trans>Every task of “{name}”, with its comments and activity, goes with it, for every member. This cannot be undone.</Trans>}
        confirmLabel={t`Delete board`}
        busyLabel={t`Deleting…`}
        confirmDisabled={!matches}
        onConfirm={() => remove.mutateAsync(boardId).then(onDeleted)}
      >
        <TextField
          label={<Trans>Type the board’s name, “{name}”, to confirm</Trans>}
          name="confirmName"
          autoComplete="off"
          value={typed}
          onChange={(event) => {
            setTyped(event.target.value);
          }}
        />
      </ConfirmDialog>
    </>
  );
}
