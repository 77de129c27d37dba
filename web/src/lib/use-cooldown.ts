import { useCallback, useEffect, useState } from 'react';
import { formatNumber, numberFormat } from './locale-format.ts';

/**
 * A countdown for rate-limited actions (e.g. "Resend code"): `start(seconds)` begins it,
 * `secondsLeft` counts down to 0. The deadline is absolute, so a throttled background tab
 * still ends on time.
 */
export function useCooldown(): { secondsLeft: number; start: (seconds: number) => void } {
  const [until, setUntil] = useState<number | null>(null);
  const [secondsLeft, setSecondsLeft] = useState(0);

  useEffect(() => {
    if (until === null) return;
    const id = window.setInterval(() => {
      const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      setSecondsLeft(left);
      if (left === 0) setUntil(null);
    }, 250);
    return () => {
      window.clearInterval(id);
    };
  }, [until]);

  const start = useCallback((seconds: number) => {
    const whole = Math.max(0, Math.ceil(seconds));
    setSecondsLeft(whole);
    setUntil(whole > 0 ? Date.now() + whole * 1000 : null);
  }, []);

  return { secondsLeft, start };
}

/** 75 → "1:15", in the digits of the language in use. */
export function formatCountdown(seconds: number): string {
  const m = formatNumber(Math.floor(seconds / 60));
  const s = numberFormat({ minimumIntegerDigits: 2 }).format(seconds % 60);
  return `${m}:${s}`;
}
