import { Trans } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { Alert } from '#web/components/alert.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { useUnsubscribe } from '../api/unsubscribe.ts';
import './account.css';

/** Posts the token of the mail's link once, and says what was turned off. */
export function UnsubscribeResult({ token }: { token: string }) {
  const unsubscribe = useUnsubscribe();
  const sent = useRef(false);
  const { mutate } = unsubscribe;

  useEffect(() => {
    if (sent.current || token === '') return;
    sent.current = true;
    mutate(token);
  }, [mutate, token]);

  if (token === '') {
    return (
      <Alert tone="error">
        <Trans>This page needs the link from one of our mails. Turn mails off on your account page instead.</Trans>
      </Alert>
    );
  }
  if (unsubscribe.isSuccess) {
    const { message, data } = unsubscribe.data;
    const email = data.email;
    return (
      <>
        <Alert tone="success">{message}</Alert>
        <p className="account-section__text">
          <Trans>
            This applies to <strong dir="auto">{email}</strong>. Codes for signing up and resetting a password are always sent.
          </Trans>
        </p>
        <p className="account-section__text">
          <Trans>
            Changed your mind? Turn it back on from your <Link className="account-link" to="/account">account page</Link>.
          </Trans>
        </p>
      </>
    );
  }
  if (unsubscribe.isError) {
    const error = unsubscribe.error;
    const text = errorText(error, { firstField: true });
    return <Alert tone="error">{text}</Alert>;
  }
  return (
    <p role="status">
      <Spinner /> <Trans>Turning these mails off…</Trans>
    </p>
  );
}
