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
import { useCreateWebhook, useDeleteWebhook, useDeliveries, useRedeliver, useUpdateWebhook, useWebhooks } from '../api/webhooks.ts';
import './webhooks.css';
import { i18n } from '@lingui/core';

const EVENT_LABELS: Record<WebhookEvent, string> = {
  'task.created': 'Task created',
  'task.updated': 'Task changed',
  'task.deleted': 'Task deleted',
  'comment.created': 'Comment added',
  'comment.updated': 'Comment edited',
  'comment.deleted': 'Comment deleted',
  'attachment.created': 'File added',
  'attachment.deleted': 'File deleted',
};
const STATUS_LABELS: Record<Delivery['status'], string> = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' };

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The signing secret of a webhook just added, shown this once, with Copy. */
function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const headingId = useId();
  return (
    <div className="webhook-secret" role="region" aria-labelledby={headingId}>
      <h3 id={headingId}>Signing secret</h3>
      <p>Copy it now: it is not shown again. Your receiver checks each delivery’s <code>webhook-signature</code> with it (Standard Webhooks).</p>
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
          Copy secret
        </Button>
        <Button size="sm" variant="ghost" onClick={onDone}>
          Done
        </Button>
      </div>
      <p role="status" className="webhook-secret__status">
        {copied === 'yes' ? 'Copied.' : copied === 'no' ? 'Couldn’t copy: select the secret and copy it yourself.' : ''}
      </p>
    </div>
  );
}

function EventChoice({ value, onChange, legend }: { value: WebhookEvent[]; onChange: (events: WebhookEvent[]) => void; legend: string }) {
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
          {EVENT_LABELS[event]} <code>{event}</code>
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
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkWebhookUrl(url);
    setUrlError(checked.ok ? null : i18n._(checked.message));
    if (!checked.ok) return;
    if (events.length === 0) {
      setError('Choose at least one event.');
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
      <summary className="webhook-new__summary">Add webhook</summary>
      <form className="webhook-form" onSubmit={submit} noValidate aria-label="Add webhook">
        {error ? <Alert tone="error">{error}</Alert> : null}
        <TextField
          label="Payload URL"
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
        <EventChoice legend="Events to send" value={events} onChange={setEvents} />
        <div className="webhook-actions">
          <Button type="submit" size="sm" variant="primary" busy={create.isPending}>
            {create.isPending ? 'Adding…' : 'Add webhook'}
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
  if (deliveries.isPending) return <p className="board-settings__none">Loading deliveries…</p>;
  if (deliveries.isError) return <RetryAlert onRetry={() => void deliveries.refetch()}>Couldn’t load the deliveries. {errorText(deliveries.error, { firstField: true })}</RetryAlert>;
  if (deliveries.data.length === 0) return <p className="board-settings__none">No deliveries yet.</p>;
  return (
    <>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="webhook-deliveries__scroll">
        <table className="webhook-deliveries">
          <caption className="visually-hidden">Recent deliveries to {hook.url}</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Response</th>
              <th scope="col">When</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deliveries.data.map((d) => (
              <tr key={d._id}>
                <td>
                  <code>{d.type}</code>
                </td>
                <td>
                  <span className={`webhook-status webhook-status--${d.status}`}>{STATUS_LABELS[d.status]}</span>
                  {d.attempts > 1 ? <span className="webhook-muted"> ({d.attempts} attempts)</span> : null}
                </td>
                <td>{d.responseStatus ?? '—'}</td>
                <td>{when(d.at)}</td>
                <td>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Redeliver ${d.type} of ${when(d.at)}`}
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
                    Redeliver
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Button size="sm" variant="ghost" onClick={() => void deliveries.refetch()}>
        Refresh
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
  const state = !hook.active ? 'Paused' : hook.failingSince !== null ? `Failing since ${when(hook.failingSince)}` : 'Active';
  const tone = !hook.active ? 'paused' : hook.failingSince !== null ? 'failing' : 'active';
  return (
    <li className="webhook-row">
      <div className="webhook-row__head">
        <span className="webhook-row__url">{hook.url}</span>
        <span className={`webhook-state webhook-state--${tone}`}>{state}</span>
      </div>
      <p className="webhook-muted">{hook.events.map((e) => EVENT_LABELS[e]).join(', ')}</p>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="webhook-actions">
        <Button
          size="sm"
          variant="secondary"
          busy={update.isPending}
          aria-label={`${hook.active ? 'Pause' : 'Resume'} webhook ${hook.url}`}
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
          {hook.active ? 'Pause' : 'Resume'}
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
          {showLog ? 'Hide deliveries' : 'Recent deliveries'}
        </Button>
        <Button
          ref={deleteRef}
          size="sm"
          variant="danger-ghost"
          aria-haspopup="dialog"
          aria-label={`Delete webhook ${hook.url}`}
          onClick={() => {
            setError(null);
            setConfirming(true);
          }}
        >
          Delete
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
        title="Delete this webhook?"
        body={<>Events stop going to {hook.url}, and deliveries not yet made are dropped. This cannot be undone.</>}
        confirmLabel="Delete webhook"
        busyLabel="Deleting…"
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
  return (
    <section className="settings-section" aria-labelledby={headingId}>
      <h2 id={headingId}>Webhooks{hooks.data ? ` (${hooks.data.length})` : ''}</h2>
      <p className="webhook-muted">
        Taskwise sends a signed POST to each URL when the chosen events happen on this board. Deliveries that fail are retried for 24 hours; a webhook that fails all
        that time is paused, and the board’s admins get a mail.
      </p>
      {hooks.isError ? <RetryAlert onRetry={() => void hooks.refetch()}>Couldn’t load the webhooks. {errorText(hooks.error, { firstField: true })}</RetryAlert> : null}
      {secret !== null ? (
        <SecretOnce
          secret={secret}
          onDone={() => {
            setSecret(null);
          }}
        />
      ) : null}
      {hooks.data?.length === 0 ? <p className="board-settings__none">No webhooks yet.</p> : null}
      {hooks.data && hooks.data.length > 0 ? (
        <ul className="webhook-rows">
          {hooks.data.map((hook) => (
            <WebhookRow key={hook._id} boardId={boardId} hook={hook} />
          ))}
        </ul>
      ) : null}
      {hooks.data && hooks.data.length < WEBHOOK_LIMITS.perBoard ? <NewWebhook boardId={boardId} onSecret={setSecret} /> : null}
      {hooks.data && hooks.data.length >= WEBHOOK_LIMITS.perBoard ? <p className="board-settings__none">This board has the most webhooks it can have ({WEBHOOK_LIMITS.perBoard}).</p> : null}
    </section>
  );
}
