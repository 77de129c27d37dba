import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useState } from 'react';
import { Alert } from '#web/components/alert.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { Switch } from '#web/components/switch.tsx';
import { isApiError } from '#web/lib/api-client.ts';
import { currentSubscription, DEVICE_MESSAGES, DeviceError, permissionBlocked, pushSupported, subscribeThisDevice, unsubscribeThisDevice } from '../api/push-device.ts';
import './notification-settings.css';

/** Where this device stands: still looking, cannot, blocked by the person, on, or off. */
export type DeviceState = 'checking' | 'unsupported' | 'denied' | 'on' | 'off';

function initialState(): DeviceState {
  if (!pushSupported()) return 'unsupported';
  return permissionBlocked() ? 'denied' : 'checking';
}

const STATE_TEXT: Record<DeviceState, MessageDescriptor> = {
  checking: msg`Checking this device…`,
  unsupported: msg`Not available in this browser.`,
  denied: msg`Blocked in this browser’s settings.`,
  on: msg`On: this device shows your notifications, even with Taskwise closed.`,
  off: msg({ message: 'Off.', comment: 'Notifications on this device are off' }),
};

/**
 * "Notifications on this device": one switch. Its state is the browser's own subscription
 * (`pushManager.getSubscription()`), so it is right after a reload or in another tab.
 */
export function DevicePushSwitch() {
  const [state, setState] = useState<DeviceState>(initialState);
  const [busy, setBusy] = useState<'on' | 'off' | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error' | 'info'; text: string } | null>(null);
  const explanation = useId();
  const { t, i18n } = useLingui();

  const failureText = (error: unknown): string => {
    if (error instanceof DeviceError || isApiError(error)) return error.message;
    return i18n._(DEVICE_MESSAGES.failed);
  };

  useEffect(() => {
    if (initialState() !== 'checking') return;
    let current = true;
    currentSubscription().then(
      (subscription) => {
        if (current) setState(subscription === null ? 'off' : 'on');
      },
      () => {
        if (current) setState('off');
      },
    );
    return () => {
      current = false;
    };
  }, []);

  const turnOn = async () => {
    setBusy('on');
    setMessage(null);
    try {
      const outcome = await subscribeThisDevice();
      if (outcome === 'on') {
        setState('on');
        setMessage({ tone: 'success', text: t`Notifications are on for this device.` });
      } else if (outcome === 'denied') {
        setState('denied');
      } else {
        setMessage({ tone: 'info', text: i18n._(DEVICE_MESSAGES.dismissed) });
      }
    } catch (error) {
      setMessage({ tone: 'error', text: failureText(error) });
    } finally {
      setBusy(null);
    }
  };

  const turnOff = async () => {
    setBusy('off');
    setMessage(null);
    try {
      await unsubscribeThisDevice();
      setState('off');
      setMessage({ tone: 'success', text: t`Notifications are off for this device.` });
    } catch (error) {
      const reason = failureText(error);
      setMessage({ tone: 'error', text: t({ message: `Notifications are still on for this device. ${reason}`, comment: 'reason: why, in the server’s or the app’s words' }) });
    } finally {
      setBusy(null);
    }
  };

  const usable = state === 'on' || state === 'off';
  const note = state === 'unsupported' ? i18n._(DEVICE_MESSAGES.unsupported) : state === 'denied' ? i18n._(DEVICE_MESSAGES.denied) : null;
  return (
    <div className="device-push">
      <p className="account-section__text">
        <Trans>
          Get your notifications on this device as the system shows them, also when Taskwise is not open. Which types are pushed is set in the table above.
        </Trans>
      </p>
      <label className="device-push__row">
        <Switch
          checked={busy !== null ? busy === 'on' : state === 'on'}
          disabled={!usable && busy === null}
          aria-disabled={busy !== null || undefined}
          aria-busy={busy !== null || state === 'checking' || undefined}
          aria-describedby={note !== null ? explanation : undefined}
          onChange={(event) => {
            if (busy !== null || !usable) return;
            void (event.target.checked ? turnOn() : turnOff());
          }}
        />
        <span className="device-push__label">
          <Trans>Notifications on this device</Trans>
        </span>
      </label>
      <p className="device-push__state">
        {busy !== null || state === 'checking' ? <Spinner /> : null}
        {busy === 'on' ? <Trans>Turning on… (your browser may ask first)</Trans> : busy === 'off' ? <Trans>Turning off…</Trans> : i18n._(STATE_TEXT[state])}
      </p>
      {note !== null ? (
        <Alert tone="info">
          <span id={explanation}>{note}</span>
        </Alert>
      ) : null}
      {message !== null ? <Alert tone={message.tone}>{message.text}</Alert> : null}
    </div>
  );
}
