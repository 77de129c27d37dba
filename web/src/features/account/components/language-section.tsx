import { useLingui } from '@lingui/react/macro';
import { useState, type SubmitEvent } from 'react';
import { HOUR_CYCLES, LANGUAGE_NAMES, LANGUAGES, WEEK_STARTS, type HourCycle, type Language, type WeekStart } from '#shared/languages.ts';
import { SelectField } from '#web/components/field.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { Alert } from '#web/components/alert.tsx';
import { dateTimeFormat, formatLocale } from '#web/lib/locale-format.ts';
import { useSettings } from '../api/get-settings.ts';
import { useUpdateSettings } from '../api/update-settings.ts';
import { AccountFormFooter, AccountSection } from './account-section.tsx';

/** A Monday, Sunday and Saturday (UTC), to name the days in the language in use. */
const DAYS: Record<WeekStart, string> = { monday: '2024-01-01T12:00:00Z', sunday: '2024-01-07T12:00:00Z', saturday: '2024-01-06T12:00:00Z' };
/** 13:05 UTC, to show each clock. */
const AFTERNOON = new Date('2024-01-01T13:05:00Z');

/**
 * Language, first day of the week and clock. Saved together; the app switches to a new language
 * at once (app/account-preferences.tsx reads the saved settings).
 */
export function LanguageSection() {
  const { t } = useLingui();
  const settings = useSettings().data?.data.settings;
  if (!settings) return null;
  return (
    <AccountSection id="account-language" title={t`Language and formats`}>
      <LanguageForm key={`${settings.language}/${settings.weekStart}/${settings.hourCycle}`} language={settings.language} weekStart={settings.weekStart} hourCycle={settings.hourCycle} />
    </AccountSection>
  );
}

function LanguageForm(saved: { language: Language; weekStart: WeekStart; hourCycle: HourCycle }) {
  const { t } = useLingui();
  const [language, setLanguage] = useState(saved.language);
  const [weekStart, setWeekStart] = useState(saved.weekStart);
  const [hourCycle, setHourCycle] = useState(saved.hourCycle);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateSettings();
  const dayName = (day: WeekStart) => dateTimeFormat({ weekday: 'long', timeZone: 'UTC' }).format(new Date(DAYS[day]));
  const clock = (cycle: HourCycle) => new Intl.DateTimeFormat(formatLocale(), { hour: 'numeric', minute: '2-digit', hourCycle: cycle, timeZone: 'UTC' }).format(AFTERNOON);

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    update.mutate({ language, weekStart, hourCycle }, { onError: (failure) => { setError(errorText(failure)); } });
  };

  return (
    <form className="account-form" onSubmit={onSubmit} noValidate aria-label={t`Language and formats`}>
      <SelectField label={t`Language`} name="language" value={language} onChange={(event) => { setLanguage(event.target.value as Language); }}>
        {LANGUAGES.map((tag) => (
          <option key={tag} value={tag} lang={tag}>
            {LANGUAGE_NAMES[tag]}
          </option>
        ))}
      </SelectField>
      <SelectField label={t`First day of the week`} name="weekStart" value={weekStart} onChange={(event) => { setWeekStart(event.target.value as WeekStart); }}>
        {WEEK_STARTS.map((day) => (
          <option key={day} value={day}>
            {dayName(day)}
          </option>
        ))}
      </SelectField>
      <SelectField label={t`Clock`} name="hourCycle" value={hourCycle} onChange={(event) => { setHourCycle(event.target.value as HourCycle); }}>
        {HOUR_CYCLES.map((cycle) => {
          const example = clock(cycle);
          return (
            <option key={cycle} value={cycle}>
              {cycle === 'h12' ? t`12-hour (${example})` : t`24-hour (${example})`}
            </option>
          );
        })}
      </SelectField>
      {error === null ? null : <Alert tone="error">{error}</Alert>}
      <AccountFormFooter submitLabel={t`Save`} busy={update.isPending} done={update.isSuccess ? t`Saved.` : null} />
    </form>
  );
}
