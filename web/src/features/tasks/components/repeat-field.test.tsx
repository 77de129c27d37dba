import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { render as renderBare, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { NO_REPEAT, readRepeat, RepeatField, type RepeatDraft } from './repeat-field.tsx';

/** The control alone, with the language the app gives it. */
const render = (ui: ReactNode) => renderBare(ui, { wrapper: ({ children }) => <I18nProvider i18n={i18n}>{children}</I18nProvider> });

function Controlled({ hasDeadline, initial = NO_REPEAT, seen }: { hasDeadline: boolean; initial?: RepeatDraft; seen: RepeatDraft[] }) {
  const [value, setValue] = useState(initial);
  return (
    <RepeatField
      value={value}
      hasDeadline={hasDeadline}
      onChange={(next) => {
        seen.push(next);
        setValue(next);
      }}
    />
  );
}

describe('the Repeat control', () => {
  it('is off without a deadline and says why', () => {
    render(<Controlled hasDeadline={false} seen={[]} />);
    const group = screen.getByRole('group', { name: 'Repeat' });
    expect(screen.getByRole('combobox', { name: 'Repeat' })).toBeDisabled();
    expect(group).toHaveAccessibleDescription('Set a deadline first: a task repeats from its deadline.');
  });

  it('offers every day, week, month or year, then how many', async () => {
    const user = userEvent.setup();
    const seen: RepeatDraft[] = [];
    render(<Controlled hasDeadline seen={seen} />);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Repeat' }), 'Every week');
    const every = screen.getByRole('spinbutton', { name: 'Every' });
    await user.clear(every);
    await user.type(every, '3');
    expect(seen.at(-1)).toEqual({ unit: 'week', every: '3' });
    // The unit reads on from "Every 3": weeks.
    expect(screen.getByRole('combobox', { name: 'Repeat unit' })).toHaveDisplayValue('weeks');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Repeat unit' }), 'Does not repeat');
    expect(screen.queryByRole('spinbutton', { name: 'Every' })).not.toBeInTheDocument();
  });

  it('shows the server’s refusal by the field', () => {
    render(<RepeatField value={{ unit: 'day', every: '1' }} hasDeadline={false} onChange={() => undefined} error="A repeating task needs a deadline." />);
    expect(screen.getByRole('group', { name: 'Repeat' })).toHaveAccessibleDescription(/A repeating task needs a deadline\./);
    expect(screen.getByRole('combobox', { name: 'Repeat unit' })).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('readRepeat', () => {
  it('turns the draft into what the API takes', () => {
    expect(readRepeat(NO_REPEAT)).toEqual({ ok: true, value: null });
    expect(readRepeat({ unit: 'month', every: ' 2 ' })).toEqual({ ok: true, value: { every: 2, unit: 'month' } });
  });

  it('refuses an interval outside 1–365 or not a whole number', () => {
    for (const every of ['0', '366', '1.5', '', 'x']) {
      expect(readRepeat({ unit: 'day', every })).toEqual({ ok: false, message: 'Repeat every 1 to 365 days.' });
    }
  });
});
