import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useRef, useState, type SubmitEvent } from 'react';
import { WEBHOOK_EVENTS, WEBHOOK_LIMITS, type Delivery, type Webhook, type WebhookEvent } from '#shared/schemas/webhooks.ts';
import { checkWebhookUrl } from '#shared/webhooks.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { TextField } from '#web/components/field.tsx';
import { RetryAlert } from '#web/components/retry-alert.tsx';
import { isApiError, isUnauthorized } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { dateTimeFormat, formatList, formatNumber } from '#web/lib/locale-format.ts';
import { useCreateWebhook, useDeleteWebhook, useDeliveries, useRedeliver, useUpdateWebhook, useWebhooks } from '../api/webhooks.ts';
import './webhooks.css';
import { i18n } from '@lingui/core';

const EVENT_LABELS: Record<WebhookEvent, MessageDescriptor> = {
  'task.created': msg({ message: 'Task created', comment: 'A webhook event' }),
  'task.updated': msg({ message: 'Task changed', comment: 'A webhook event' }),
  'task.deleted': msg({ message: 'Task deleted', comment: 'A webhook event' }),
  'comment.created': msg({ message: 'Comment added', comment: 'A webhook event' }),
  'comment.updated': msg({ message: 'Comment edited', comment: 'A webhook event' }),
  'comment.deleted': msg({ message: 'Comment deleted', comment: 'A webhook event' }),
  'attachment.created': msg({ message: 'File added', comment: 'A webhook event' }),
  'attachment.deleted': msg({ message: 'File deleted', comment: 'A webhook event' }),
};
const STATUS_LABELS: Record<Delivery['status'], MessageDescriptor> = {
  pending: msg({ message: 'Pending', comment: 'The status of a webhook delivery' }),
  delivered: msg({ message: 'Delivered', comment: 'The status of a webhook delivery' }),
  failed: msg({ message: 'Failed', comment: 'The status of a webhook delivery' }),
};

/** The header a receiver checks (Standard Webhooks): typed as is, never translated. */
const SIGNATURE_HEADER = 'webhook-signature';

/** A moment of a webhook or a delivery, in the language in use (call it while rendering). */
const when = (iso: string) => dateTimeFormat({ dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** The signing secret of a webhook just added, shown this once, with Copy. */
function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const headingId = useId();
  const { t } = useLingui();
  return (
    <div className="webhook-secret" role="region" aria-labelledby={headingId}>
      <h3 id={headingId}>
        <Trans>Signing secret</Trans>
      </h3>
      <p>
        <Trans>
          Copy it now: it is not shown again. Your receiver checks each delivery’s <code>{SIGNATURE_HEADER}</code> with it (Standard Webhooks).
        </Trans>
      </p>
      <code className="webhook-secret__value" data-testid="webhook-secret">
        {secret}
      </code>
      <div className="webhook-actions">
        <Button
          size="sm"
          variant="primary"
          onClick={() => {
            navigator.clipboard.writeText(secret).then(
              () => {
                setCopied('yes');
              },
              () => {
                setCopied('no');
              },
            );
          }}
        >
          <Trans>Copy secret</Trans>
        </Button>
        <Button size="sm" variant="ghost" onClick={onDone}>
          <Trans comment="Button that closes the secret shown once">Done</Trans>
        </Button>
      </div>
      <p role="status" className="webhook-secret__status">
        {copied === 'yes' ? t`Copied.` : copied === 'no' ? t`Couldn’t copy: select the secret and copy it yourself.` : ''}
      </p>
    </div>
  );
}

function EventChoice({ value, onChange, legend }: { value: WebhookEvent[]; onChange: (events: WebhookEvent[]) => void; legend: string }) {
  const { i18n } = useLingui();
  return (
    <fieldset className="webhook-events">
      <legend>{legend}</legend>
      {WEBHOOK_EVENTS.map((event) => (
        <label key={event} className="webhook-events__choice">
          <input
            type="checkbox"
            checked={value.includes(event)}
            onChange={(e) => {
              onChange(e.target.checked ? WEBHOOK_EVENTS.filter((x) => x === event || value.includes(x)) : value.filter((x) => x !== event));
            }}
          />
          {i18n._(EVENT_LABELS[event])} <code>{event}</code>
        </label>
      ))}
    </fieldset>
  );
}

function NewWebhook({ boardId, onSecret }: { boardId: string; onSecret: (secret: string) => void }) {
  const create = useCreateWebhook(boardId);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['task.created', 'task.updated', 'task.deleted']);
  const [urlError, setUrlError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { t } = useLingui();
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkWebhookUrl(url);
    setUrlError(checked.ok ? null : i18n._(checked.message));
    if (!checked.ok) return;
    if (events.length === 0) {
      setError(t`Choose at least one event.`);
      return;
    }
    setError(null);
    create.mutate(
      { url: checked.value, events },
      {
        onSuccess: ({ secret }) => {
          setUrl('');
          onSecret(secret);
        },
        onError: (failure) => {
          if (isUnauthorized(failure)) return;
          if (isApiError(failure) && failure.errors[0]?.field === 'url') setUrlError(failure.errors[0].message);
          else setError(errorText(failure, { firstField: true }));
        },
      },
    );
  };
  return (
    <details className="webhook-new">
      <summary className="webhook-new__summary">
        <Trans>Add webhook</Trans>
      </summary>
      <form className="webhook-form" onSubmit={submit} noValidate aria-label={t`Add webhook`}>
        {error ? <Alert tone="error">{error}</Alert> : null}
        <TextField
          label={t`Payload URL`}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://example.com/taskwise"
          maxLength={WEBHOOK_LIMITS.urlMax}
          value={url}
          error={urlError}
          onChange={(e) => {
            setUrl(e.target.value);
          }}
        />
        <EventChoice legend={t`Events to send`} value={events} onChange={setEvents} />
        <div className="webhook-actions">
          <Button type="submit" size="sm" variant="primary" busy={create.isPending}>
            {create.isPending ? <Trans>Adding…</Trans> : <Trans>Add webhook</Trans>}
          </Button>
        </div>
      </form>
    </details>
  );
}

function Deliveries({ boardId, hook }: { boardId: string; hook: Webhook }) {
  const deliveries = useDeliveries(boardId, hook._id, true);
  const redeliver = useRedeliver(boardId, hook._id);
  const [error, setError] = useState<string | null>(null);
  const { i18n, t } = useLingui();
  if (deliveries.isPending) {
    return (
      <p className="board-settings__none">
        <Trans>Loading deliveries…</Trans>
      </p>
    );
  }
  if (deliveries.isError) {
    // The server's words (already in the reader's language) after ours.
    const reason = errorText(deliveries.error, { firstField: true });
    return (
      <RetryAlert onRetry={() => void deliveries.refetch()}>
        <Trans>Couldn’t load the deliveries. {reason}</Trans>
      </RetryAlert>
    );
  }
  if (deliveries.data.length === 0) {
    return (
      <p className="board-settings__none">
        <Trans>No deliveries yet.</Trans>
      </p>
    );
  }
  const url = hook.url;
  return (
    <>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="webhook-deliveries__scroll">
        <table className="webhook-deliveries">
          <caption className="visually-hidden">
            <Trans>Recent deliveries to {url}</Trans>
          </caption>
          <thead>
            <tr>
              <th scope="col">
                <Trans comment="Column of the deliveries table: the webhook event">Event</Trans>
              </th>
              <th scope="col">
                <Trans comment="Column of the deliveries table: pending, delivered or failed">Status</Trans>
              </th>
              <th scope="col">
                <Trans comment="Column of the deliveries table: the HTTP status the receiver answered">Response</Trans>
              </th>
              <th scope="col">
                <Trans comment="Column of the deliveries table: when it was sent">When</Trans>
              </th>
              <th scope="col">
                <span className="visually-hidden">
                  <Trans comment="Column of the deliveries table: its buttons">Actions</Trans>
                </span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deliveries.data.map((d) => {
              const type = d.type;
              const at = when(d.at);
              const attempts = d.attempts;
              return (
                <tr key={d._id}>
                  <td>
                    <code>{d.type}</code>
                  </td>
                  <td>
                    <span className={`webhook-status webhook-status--${d.status}`}>{i18n._(STATUS_LABELS[d.status])}</span>
                    {attempts > 1 ? (
                      <span className="webhook-muted">
                        {' '}
                        {t`${plural(attempts, { one: '(# attempt)', other: '(# attempts)' })}`}
                      </span>
                    ) : null}
                  </td>
                  <td>{d.responseStatus ?? '—'}</td>
                  <td>{at}</td>
                  <td>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={t`Redeliver ${type} of ${at}`}
                      disabled={redeliver.isPending}
                      onClick={() => {
                        setError(null);
                        redeliver.mutate(d._id, {
                          onError: (failure) => {
                            if (!isUnauthorized(failure)) setError(errorText(failure, { firstField: true }));
                          },
                        });
                      }}
                    >
                      <Trans comment="Button that sends a webhook delivery again">Redeliver</Trans>
                    </Button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <Button size="sm" variant="ghost" onClick={() => void deliveries.refetch()}>
        <Trans comment="Button that loads the deliveries again">Refresh</Trans>
      </Button>
    </>
  );
}

function WebhookRow({ boardId, hook }: { boardId: string; hook: Webhook }) {
  const update = useUpdateWebhook(boardId);
  const remove = useDeleteWebhook(boardId);
  const [confirming, setConfirming] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const deleteRef = useRef<HTMLButtonElement>(null);
  const logId = useId();
  const { i18n, t } = useLingui();
  const url = hook.url;
  const since = hook.failingSince === null ? null : when(hook.failingSince);
  const state = !hook.active
    ? t({ message: 'Paused', comment: 'The state of a webhook' })
    : since !== null
      ? t({ message: `Failing since ${since}`, comment: 'The state of a webhook' })
      : t({ message: 'Active', comment: 'The state of a webhook' });
  const tone = !hook.active ? 'paused' : hook.failingSince !== null ? 'failing' : 'active';
  return (
    <li className="webhook-row">
      <div className="webhook-row__head">
        <span className="webhook-row__url">{hook.url}</span>
        <span className={`webhook-state webhook-state--${tone}`}>{state}</span>
      </div>
      <p className="webhook-muted">{formatList(hook.events.map((e) => i18n._(EVENT_LABELS[e])))}</p>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="webhook-actions">
        <Button
          size="sm"
          variant="secondary"
          busy={update.isPending}
          aria-label={hook.active ? t`Pause webhook ${url}` : t`Resume webhook ${url}`}
          onClick={() => {
            setError(null);
            update.mutate(
              { hookId: hook._id, active: !hook.active },
              {
                onError: (failure) => {
                  if (!isUnauthorized(failure)) setError(errorText(failure, { firstField: true }));
                },
              },
            );
          }}
        >
          {hook.active ? <Trans comment="Button that pauses a webhook">Pause</Trans> : <Trans comment="Button that resumes a paused webhook">Resume</Trans>}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          aria-expanded={showLog}
          aria-controls={logId}
          onClick={() => {
            setShowLog((v) => !v);
          }}
        >
          {showLog ? <Trans>Hide deliveries</Trans> : <Trans>Recent deliveries</Trans>}
        </Button>
        <Button
          ref={deleteRef}
          size="sm"
          variant="danger-ghost"
          aria-haspopup="dialog"
          aria-label={t`Delete webhook ${url}`}
          onClick={() => {
            setError(null);
            setConfirming(true);
          }}
        >
          <Trans comment="Button that deletes a webhook">Delete</Trans>
        </Button>
      </div>
      <div id={logId} hidden={!showLog} className="webhook-row__log">
        {showLog ? <Deliveries boardId={boardId} hook={hook} /> : null}
      </div>
      <ConfirmDialog
        open={confirming}
        onClose={() => {
          setConfirming(false);
        }}
        title={t`Delete this webhook?`}
        body={<Trans>Events stop going to {url}, and deliveries not yet made are dropped. This cannot be undone.</Trans>}
        confirmLabel={t`Delete webhook`}
        busyLabel={t`Deleting…`}
        onConfirm={() => remove.mutateAsync(hook._id)}
      />
    </li>
  );
}

/**
 * The board's webhooks in its settings (the page shows it to admins; the server answers 403 to
 * anyone else): add one (URL and events; its secret is shown once), pause or resume, delete
 * (confirmed), and each one's recent deliveries with their status and answer, to redeliver.
 */
export function BoardWebhooksSection({ boardId }: { boardId: string }) {
  const hooks = useWebhooks(boardId);
  const [secret, setSecret] = useState<string | null>(null);
  const headingId = useId();
  if (hooks.isError && isApiError(hooks.error) && hooks.error.status === 403) return null;
  const count = hooks.data ? formatNumber(hooks.data.length) : null;
  const most = formatNumber(WEBHOOK_LIMITS.perBoard);
  const reason = hooks.isError ? errorText(hooks.error, { firstField: true }) : '';
  return (
    <section className="settings-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{count !== null ? <Trans>Webhooks ({count})</Trans> : <Trans>Webhooks</Trans>}</h2>
      <p className="webhook-muted">
        <Trans>
          Taskwise sends a signed POST to each URL when the chosen events happen on this board. Deliveries that fail are retried for 24 hours; a webhook that fails
          all that time is paused, and the board’s admins get a mail.
        </Trans>
      </p>
      {hooks.isError ? (
        <RetryAlert onRetry={() => void hooks.refetch()}>
          <Trans>Couldn’t load the webhooks. {reason}</Trans>
        </RetryAlert>
      ) : null}
      {secret !== null ? (
        <SecretOnce
          secret={secret}
          onDone={() => {
            setSecret(null);
          }}
        />
      ) : null}
      {hooks.data?.length === 0 ? (
        <p className="board-settings__none">
          <Trans>No webhooks yet.</Trans>
        </p>
      ) : null}
      {hooks.data && hooks.data.length > 0 ? (
        <ul className="webhook-rows">
          {hooks.data.map((hook) => (
            <WebhookRow key={hook._id} boardId={boardId} hook={hook} />
          ))}
        </ul>
      ) : null}
      {hooks.data && hooks.data.length < WEBHOOK_LIMITS.perBoard ? <NewWebhook boardId={boardId} onSecret={setSecret} /> : null}
      {hooks.data && hooks.data.length >= WEBHOOK_LIMITS.perBoard ? (
        <p className="board-settings__none">
          <Trans>This board has the most webhooks it can have ({most}).</Trans>
        </p>
      ) : null}
    </section>
  );
}
