import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type ReactNode, type SubmitEvent } from 'react';
import type { AdminAction, SignInMethod } from '#shared/admin.ts';
import type { AdminAccount } from '#shared/schemas/admin.ts';
import { checkEmail } from '#shared/validation.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { EmailField, TextField } from '#web/components/field.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { dateTimeFormat, formatList, formatNumber, numberFormat } from '#web/lib/locale-format.ts';
import { useAccountAction, useAccounts, useAudit, useInvite, useServerSettings, type AccountAction } from '../api/admin.ts';
import './admin.css';

/** A moment of the admin page, in the language in use: medium date and short time; "Never" for none. */
function When({ iso }: { iso: string | null }) {
  const { t } = useLingui();
  if (iso === null) return t({ message: 'Never', comment: 'An account that was never seen' });
  return dateTimeFormat({ dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

type ByteUnit = 'kilobyte' | 'megabyte' | 'gigabyte';
const unitSize = (unit: ByteUnit, digits: number) => numberFormat({ style: 'unit', unit, unitDisplay: 'short', minimumFractionDigits: digits, maximumFractionDigits: digits });

/** 1,234,567 bytes → "1.2 MB" (MB = 1,000,000 bytes, as the storage settings count). */
function Bytes({ n }: { n: number }) {
  const { t } = useLingui();
  if (n < 1000) {
    const size = formatNumber(n);
    return t({ message: `${size} B`, comment: 'A size in bytes (B is the symbol of the byte)' });
  }
  if (n < 1_000_000) return unitSize('kilobyte', 1).format(n / 1000);
  if (n < 1_000_000_000) return unitSize('megabyte', 1).format(n / 1_000_000);
  return unitSize('gigabyte', 1).format(n / 1_000_000_000);
}

function Section({ title, children }: { title: string; children: ReactNode }) {
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
  const pageNumber = formatNumber(page);
  const pageCount = formatNumber(pages);
  return (
    <nav className="admin-pager" aria-label={label}>
      <Button size="sm" disabled={page <= 1} onClick={() => { onPage(page - 1); }}>
        <Trans comment="Button to the previous page of a list">Previous</Trans>
      </Button>
      <span>
        <Trans>
          Page {pageNumber} of {pageCount}
        </Trans>
      </span>
      <Button size="sm" disabled={page >= pages} onClick={() => { onPage(page + 1); }}>
        <Trans comment="Button to the next page of a list">Next</Trans>
      </Button>
    </nav>
  );
}

/** What the dialog that confirms an action on an account says, and how its button looks. */
function useConfirmTexts(action: AccountAction, account: AdminAccount): { title: string; body: string; label: string; destructive: boolean } {
  const { t } = useLingui();
  const name = account.fullName;
  switch (action) {
    case 'deactivate':
      return {
        title: t`Deactivate ${name}?`,
        body: t`Every session of the account ends now, on every device; it cannot sign in and its API tokens stop working until it is reactivated. Nothing is deleted: its tasks, comments and board memberships stay.`,
        label: t`Deactivate account`,
        destructive: true,
      };
    case 'reactivate':
      return {
        title: t`Reactivate ${name}?`,
        body: t`The account can sign in again, and its API tokens work again.`,
        label: t`Reactivate account`,
        destructive: false,
      };
    case 'reset-second-step':
      return {
        title: t`Reset two-step sign-in of ${name}?`,
        body: t`Their authenticator app and recovery codes stop working: the password alone signs in, and they may set two-step sign-in up again.`,
        label: t`Reset two-step sign-in`,
        destructive: true,
      };
  }
}

function AccountActionDialog({ account, action, onConfirm, onClose }: { account: AdminAccount; action: AccountAction; onConfirm: () => Promise<void>; onClose: () => void }) {
  const texts = useConfirmTexts(action, account);
  return <ConfirmDialog open title={texts.title} body={texts.body} confirmLabel={texts.label} destructive={texts.destructive} onConfirm={onConfirm} onClose={onClose} />;
}

/** How many accounts there are, or match the search. */
function AccountCount({ total, query }: { total: number; query: string }) {
  const { t } = useLingui();
  if (query === '') return t`${plural(total, { one: '# account', other: '# accounts' })}`;
  return t`${plural(total, { one: `# account match “${query}”`, other: `# accounts match “${query}”` })}`;
}

/** Accounts: search, figures, and deactivate / reactivate / reset the second step (each confirmed). */
export function AccountsSection({ myEmail }: { myEmail: string }) {
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const accounts = useAccounts(q.trim(), page);
  const action = useAccountAction();
  const [pending, setPending] = useState<{ account: AdminAccount; action: AccountAction } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const data = accounts.data;
  const { t } = useLingui();
  const query = q.trim();

  return (
    <Section title={t`Accounts`}>
      <form role="search" className="admin-search" onSubmit={(event) => { event.preventDefault(); }}>
        <TextField
          label={t`Search accounts`}
          hint={t`Part of an address or a name.`}
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
        accounts.isPending ? (
          <p role="status">
            <Trans>Loading accounts…</Trans>
          </p>
        ) : null
      ) : (
        <>
          <p className="admin-count" role="status">
            <AccountCount total={data.total} query={query} />
          </p>
          <div className="admin-table-wrap" role="region" aria-label={t`Accounts`} tabIndex={0}>
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">
                    <Trans comment="Column of the accounts table: the name and address">Account</Trans>
                  </th>
                  <th scope="col">
                    <Trans comment="Column of the accounts table: when the account was created">Created</Trans>
                  </th>
                  <th scope="col">
                    <Trans comment="Column of the accounts table: when the account was last seen">Last seen</Trans>
                  </th>
                  <th scope="col">
                    <Trans comment="Column of the accounts table: how many boards the account is on">Boards</Trans>
                  </th>
                  <th scope="col">
                    <Trans comment="Column of the accounts table: how much its files take">Storage</Trans>
                  </th>
                  <th scope="col">
                    <Trans comment="Column of the accounts table: the ways the account signs in">Sign-in</Trans>
                  </th>
                  <th scope="col">
                    <Trans comment="Column of the accounts table: its buttons">Actions</Trans>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.accounts.map((account) => {
                  const name = account.fullName;
                  return (
                    <tr key={account.id} className={account.deactivatedAt === null ? undefined : 'admin-table__row--off'}>
                      <th scope="row">
                        {/* A person's name and address: their own words, never translated (not even by the browser). */}
                        <span className="admin-table__name" translate="no">
                          {account.fullName}
                        </span>
                        <span className="admin-table__email" translate="no">
                          {account.email}
                        </span>
                        {account.isAdmin ? (
                          <span className="admin-badge">
                            <Trans comment="Badge of an account that is an admin of this server">Admin</Trans>
                          </span>
                        ) : null}
                        {account.deactivatedAt === null ? null : (
                          <span className="admin-badge admin-badge--off">
                            <Trans comment="Badge of a deactivated account">Deactivated</Trans>
                          </span>
                        )}
                      </th>
                      <td>
                        <When iso={account.createdAt} />
                      </td>
                      <td>
                        <When iso={account.lastSeenAt} />
                      </td>
                      <td>{formatNumber(account.boards)}</td>
                      <td>
                        <Bytes n={account.storageBytes} />
                      </td>
                      <td>{account.signInMethods.length === 0 ? '—' : formatList(account.signInMethods.map((m) => i18n._(SIGN_IN_METHODS[m])))}</td>
                      <td>
                        <div className="admin-actions">
                          {account.deactivatedAt === null ? (
                            account.email === myEmail ? null : (
                              <Button size="sm" variant="danger" onClick={() => { setPending({ account, action: 'deactivate' }); }} aria-label={t`Deactivate ${name}`}>
                                <Trans comment="Button that deactivates an account">Deactivate</Trans>
                              </Button>
                            )
                          ) : (
                            <Button size="sm" onClick={() => { setPending({ account, action: 'reactivate' }); }} aria-label={t`Reactivate ${name}`}>
                              <Trans comment="Button that reactivates an account">Reactivate</Trans>
                            </Button>
                          )}
                          {account.signInMethods.includes('two-step') ? (
                            <Button size="sm" onClick={() => { setPending({ account, action: 'reset-second-step' }); }} aria-label={t`Reset two-step sign-in of ${name}`}>
                              <Trans comment="Button that turns off the two-step sign-in of an account">Reset two-step</Trans>
                            </Button>
                          ) : null}
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} label={t`Pages of accounts`} />
        </>
      )}
      {pending === null ? null : (
        <AccountActionDialog
          account={pending.account}
          action={pending.action}
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
  const { t } = useLingui();
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
    <Section title={t`Invite someone`}>
      <p className="admin-section__text">
        <Trans>They get a mail with a link to sign up; on a server where sign-up is by invitation, the address may then register.</Trans>
      </p>
      <form className="admin-form" onSubmit={submit} noValidate>
        <EmailField label={t`E-mail address`} value={email} autoComplete="off" error={fieldError} onChange={(event) => { setEmail(event.target.value); }} />
        <div>
          <Button type="submit" variant="primary" busy={invite.isPending}>
            <Trans>Send invitation</Trans>
          </Button>
        </div>
      </form>
      {invite.isSuccess ? <Alert tone="success">{invite.data.message}</Alert> : null}
      {invite.isError ? <Alert tone="error">{errorText(invite.error)}</Alert> : null}
    </Section>
  );
}

const ENVIRONMENT_VARIABLE = /^[A-Z][A-Z0-9_]*$/;

/** The server's settings, as the server shows them (secrets only as set / not set). */
export function SettingsSection() {
  const settings = useServerSettings();
  const { t } = useLingui();
  return (
    <Section title={t`Server settings`}>
      <p className="admin-section__text">
        <Trans>Set in the server's environment; secrets are shown only as set or not set.</Trans>
      </p>
      {settings.isError ? <Alert tone="error">{errorText(settings.error)}</Alert> : null}
      {settings.data === undefined ? null : (
        <dl className="admin-settings">
          {settings.data.map((s) => (
            <div key={s.name} className="admin-settings__row">
              {/* An environment variable and a value as given are machine words, never translated. */}
              <dt>{ENVIRONMENT_VARIABLE.test(s.name) ? <code>{s.name}</code> : s.name}</dt>
              <dd>{s.value === '' ? t({ message: '(empty)', comment: 'A server setting that is set to nothing' }) : s.said ? s.value : <code>{s.value}</code>}</dd>
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
  const { t } = useLingui();
  return (
    <Section title={t`Audit log`}>
      {audit.isError ? <Alert tone="error">{errorText(audit.error)}</Alert> : null}
      {data === undefined ? null : data.entries.length === 0 ? (
        <p className="admin-section__text">
          <Trans>No admin actions yet.</Trans>
        </p>
      ) : (
        <>
          <ol className="admin-audit">
            {data.entries.map((e) => (
              <li key={e.id}>
                <time dateTime={e.at}>
                  <When iso={e.at} />
                </time>{' '}
                <AuditLine action={e.action} actor={e.actorEmail} subject={e.subjectEmail ?? ''} />
                {e.detail === '' ? null : <> ({e.detail})</>}
              </li>
            ))}
          </ol>
          <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} label={t`Pages of the audit log`} />
        </>
      )}
    </Section>
  );
}

/** How each way in is named in the accounts table. */
const SIGN_IN_METHODS: Record<SignInMethod, MessageDescriptor> = {
  password: msg({ message: 'Password', comment: 'A way to sign in' }),
  'single-sign-on': msg({ message: 'Single sign-on', comment: 'A way to sign in' }),
  passkey: msg({ message: 'Passkey', comment: 'A way to sign in' }),
  'two-step': msg({ message: 'Two-step (authenticator app)', comment: 'A way to sign in: a code from an authenticator app as the second step' }),
};

/** One entry of the audit log: a whole sentence per action, so each language orders its words. */
function AuditLine({ action, actor, subject }: { action: AdminAction; actor: string; subject: string }) {
  const who = <strong translate="no">{actor}</strong>;
  switch (action) {
    case 'deactivate':
      return <Trans>{who} deactivated {subject}</Trans>;
    case 'reactivate':
      return <Trans>{who} reactivated {subject}</Trans>;
    case 'reset-second-step':
      return <Trans>{who} reset the second step of {subject}</Trans>;
    case 'invite':
      return <Trans>{who} invited {subject}</Trans>;
    case 'promote':
      return <Trans>{who} made {subject} an admin</Trans>;
    case 'demote':
      return <Trans>{who} took admin rights from {subject}</Trans>;
  }
}
