import { useId, useState, type SubmitEvent } from 'react';
import { ADMIN_ACTION_LABELS, SIGN_IN_METHOD_LABELS } from '#shared/admin.ts';
import type { AdminAccount } from '#shared/schemas/admin.ts';
import { checkEmail } from '#shared/validation.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { EmailField, TextField } from '#web/components/field.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { useAccountAction, useAccounts, useAudit, useInvite, useServerSettings, type AccountAction } from '../api/admin.ts';
import './admin.css';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const when = (iso: string | null) => (iso === null ? 'Never' : dateTime.format(new Date(iso)));

/** 1,234,567 bytes → "1.2 MB" (MB = 1,000,000 bytes, as the storage settings count). */
function bytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)} kB`;
  if (n < 1_000_000_000) return `${(n / 1_000_000).toFixed(1)} MB`;
  return `${(n / 1_000_000_000).toFixed(1)} GB`;
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  const id = useId();
  return (
    <section className="admin-section" aria-labelledby={id}>
      <h2 id={id} className="admin-section__title">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Pager({ page, pageSize, total, onPage, label }: { page: number; pageSize: number; total: number; onPage: (page: number) => void; label: string }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages === 1) return null;
  return (
    <nav className="admin-pager" aria-label={label}>
      <Button size="sm" disabled={page <= 1} onClick={() => { onPage(page - 1); }}>
        Previous
      </Button>
      <span>
        Page {page} of {pages}
      </span>
      <Button size="sm" disabled={page >= pages} onClick={() => { onPage(page + 1); }}>
        Next
      </Button>
    </nav>
  );
}

const CONFIRM: Record<AccountAction, { title: (a: AdminAccount) => string; body: string; label: string; destructive: boolean }> = {
  deactivate: {
    title: (a) => `Deactivate ${a.fullName}?`,
    body: 'Every session of the account ends now, on every device; it cannot sign in and its API tokens stop working until it is reactivated. Nothing is deleted: its tasks, comments and board memberships stay.',
    label: 'Deactivate account',
    destructive: true,
  },
  reactivate: {
    title: (a) => `Reactivate ${a.fullName}?`,
    body: 'The account can sign in again, and its API tokens work again.',
    label: 'Reactivate account',
    destructive: false,
  },
  'reset-second-step': {
    title: (a) => `Reset two-step sign-in of ${a.fullName}?`,
    body: 'Their authenticator app and recovery codes stop working: the password alone signs in, and they may set two-step sign-in up again.',
    label: 'Reset two-step sign-in',
    destructive: true,
  },
};

/** Accounts: search, figures, and deactivate / reactivate / reset the second step (each confirmed). */
export function AccountsSection({ myEmail }: { myEmail: string }) {
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const accounts = useAccounts(q.trim(), page);
  const action = useAccountAction();
  const [pending, setPending] = useState<{ account: AdminAccount; action: AccountAction } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const data = accounts.data;

  return (
    <Section title="Accounts">
      <form role="search" className="admin-search" onSubmit={(event) => { event.preventDefault(); }}>
        <TextField
          label="Search accounts"
          hint="Part of an address or a name."
          type="search"
          value={q}
          maxLength={100}
          onChange={(event) => {
            setQ(event.target.value);
            setPage(1);
          }}
        />
      </form>
      {done === null ? null : <Alert tone="success">{done}</Alert>}
      {accounts.isError ? <Alert tone="error">{errorText(accounts.error)}</Alert> : null}
      {data === undefined ? (
        accounts.isPending ? <p role="status">Loading accounts…</p> : null
      ) : (
        <>
          <p className="admin-count" role="status">
            {data.total === 1 ? '1 account' : `${data.total} accounts`}
            {q.trim() === '' ? '' : ` match “${q.trim()}”`}
          </p>
          <div className="admin-table-wrap" role="region" aria-label="Accounts" tabIndex={0}>
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Account</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last seen</th>
                  <th scope="col">Boards</th>
                  <th scope="col">Storage</th>
                  <th scope="col">Sign-in</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {data.accounts.map((account) => (
                  <tr key={account.id} className={account.deactivatedAt === null ? undefined : 'admin-table__row--off'}>
                    <th scope="row">
                      <span className="admin-table__name">{account.fullName}</span>
                      <span className="admin-table__email">{account.email}</span>
                      {account.isAdmin ? <span className="admin-badge">Admin</span> : null}
                      {account.deactivatedAt === null ? null : <span className="admin-badge admin-badge--off">Deactivated</span>}
                    </th>
                    <td>{when(account.createdAt)}</td>
                    <td>{when(account.lastSeenAt)}</td>
                    <td>{account.boards}</td>
                    <td>{bytes(account.storageBytes)}</td>
                    <td>{account.signInMethods.map((m) => SIGN_IN_METHOD_LABELS[m]).join(', ') || '—'}</td>
                    <td>
                      <div className="admin-actions">
                        {account.deactivatedAt === null ? (
                          account.email === myEmail ? null : (
                            <Button size="sm" variant="danger" onClick={() => { setPending({ account, action: 'deactivate' }); }} aria-label={`Deactivate ${account.fullName}`}>
                              Deactivate
                            </Button>
                          )
                        ) : (
                          <Button size="sm" onClick={() => { setPending({ account, action: 'reactivate' }); }} aria-label={`Reactivate ${account.fullName}`}>
                            Reactivate
                          </Button>
                        )}
                        {account.signInMethods.includes('two-step') ? (
                          <Button size="sm" onClick={() => { setPending({ account, action: 'reset-second-step' }); }} aria-label={`Reset two-step sign-in of ${account.fullName}`}>
                            Reset two-step
                          </Button>
                        ) : null}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} label="Pages of accounts" />
        </>
      )}
      {pending === null ? null : (
        <ConfirmDialog
          open
          title={CONFIRM[pending.action].title(pending.account)}
          body={CONFIRM[pending.action].body}
          confirmLabel={CONFIRM[pending.action].label}
          destructive={CONFIRM[pending.action].destructive}
          onConfirm={async () => {
            const res = await action.mutateAsync({ id: pending.account.id, action: pending.action });
            setDone(res.message);
          }}
          onClose={() => { setPending(null); }}
        />
      )}
    </Section>
  );
}

/** Invite an address: a mail with the sign-up link (it counts for REGISTRATION=invite). */
export function InviteSection() {
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const invite = useInvite();
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkEmail(email);
    if (!checked.ok) {
      setFieldError(checked.message);
      return;
    }
    setFieldError(null);
    invite.mutate({ email: checked.value }, { onSuccess: () => { setEmail(''); } });
  };
  return (
    <Section title="Invite someone">
      <p className="admin-section__text">They get a mail with a link to sign up; on a server where sign-up is by invitation, the address may then register.</p>
      <form className="admin-form" onSubmit={submit} noValidate>
        <EmailField label="E-mail address" value={email} autoComplete="off" error={fieldError} onChange={(event) => { setEmail(event.target.value); }} />
        <div>
          <Button type="submit" variant="primary" busy={invite.isPending}>
            Send invitation
          </Button>
        </div>
      </form>
      {invite.isSuccess ? <Alert tone="success">{invite.data.message}</Alert> : null}
      {invite.isError ? <Alert tone="error">{errorText(invite.error)}</Alert> : null}
    </Section>
  );
}

/** The server's settings, as the server shows them (secrets only as set / not set). */
export function SettingsSection() {
  const settings = useServerSettings();
  return (
    <Section title="Server settings">
      <p className="admin-section__text">Set in the server's environment; secrets are shown only as set or not set.</p>
      {settings.isError ? <Alert tone="error">{errorText(settings.error)}</Alert> : null}
      {settings.data === undefined ? null : (
        <dl className="admin-settings">
          {settings.data.map((s) => (
            <div key={s.name} className="admin-settings__row">
              <dt>{s.name}</dt>
              <dd>{s.value === '' ? '(empty)' : s.value}</dd>
            </div>
          ))}
        </dl>
      )}
    </Section>
  );
}

/** What admins did, newest first. */
export function AuditSection() {
  const [page, setPage] = useState(1);
  const audit = useAudit(page);
  const data = audit.data;
  return (
    <Section title="Audit log">
      {audit.isError ? <Alert tone="error">{errorText(audit.error)}</Alert> : null}
      {data === undefined ? null : data.entries.length === 0 ? (
        <p className="admin-section__text">No admin actions yet.</p>
      ) : (
        <>
          <ol className="admin-audit">
            {data.entries.map((e) => (
              <li key={e.id}>
                <time dateTime={e.at}>{when(e.at)}</time> <strong>{e.actorEmail}</strong> {ADMIN_ACTION_LABELS[e.action].toLowerCase()} {e.subjectEmail ?? ''}
                {e.detail === '' ? '' : ` (${e.detail})`}
              </li>
            ))}
          </ol>
          <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} label="Pages of the audit log" />
        </>
      )}
    </Section>
  );
}
