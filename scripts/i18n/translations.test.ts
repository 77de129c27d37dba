import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePo } from 'pofile-ts';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, PSEUDO_LANGUAGE } from '#shared/languages.ts';
import { translationProblems } from './translation-problems.ts';

/** Every translation in every catalog, checked by translation-problems.ts. */
const root = fileURLToPath(new URL('../../', import.meta.url));
const CATALOG_DIRECTORIES = ['web/src/locales/public', 'web/src/locales/app', 'server/locales'];

interface Entry {
  file: string;
  language: string;
  source: string;
  translation: string;
}

function entries(): Entry[] {
  const all: Entry[] = [];
  for (const directory of CATALOG_DIRECTORIES) {
    for (const name of readdirSync(join(root, directory))) {
      const language = name.replace(/\.po$/, '');
      if (language === 'en' || language === PSEUDO_LANGUAGE) continue;
      const file = `${directory}/${name}`;
      for (const item of parsePo(readFileSync(join(root, file), 'utf8')).items) {
        all.push({ file, language, source: item.msgid, translation: item.msgstr[0] ?? '' });
      }
    }
  }
  return all;
}

describe('translations', () => {
  it('checks what it should: a lost value, lost markup, a missing plural form, broken syntax', () => {
    expect(translationProblems('Moved “{title}”.', '„{title}“ verschoben.', 'de')).toEqual([]);
    expect(translationProblems('Moved “{title}”.', '„{titel}“ verschoben.', 'de')).toEqual(['values titel instead of title']);
    expect(translationProblems('Read <0>the guide</0>.', 'Lies die Anleitung.', 'de')).toEqual(['markup <> instead of <0>']);
    expect(translationProblems('{count, plural, one {# task} other {# tasks}}', '{count, plural, one {# zadanie} other {# zadań}}', 'pl')).toEqual(['a plural without the forms few, many']);
    expect(translationProblems('{count, plural, one {# task} other {# tasks}}', '{count, plural, other {# 件のタスク}}', 'ja')).toEqual([]);
    expect(translationProblems('{count, plural, one {# task} other {# tasks}}', '{count, plural, one {# tâche} other {# tâches}}', 'fr')).toEqual([]);
    expect(translationProblems('Hello {name}', 'Hallo {name', 'de')[0]).toMatch(/^not valid ICU MessageFormat/);
  });

  it('cover the languages the app offers, and nothing else', () => {
    for (const directory of CATALOG_DIRECTORIES) {
      const languages = readdirSync(join(root, directory)).map((name) => name.replace(/\.po$/, ''));
      expect(languages.sort()).toEqual([...LANGUAGES, PSEUDO_LANGUAGE].sort());
    }
  });

  it('translate every message of every language (a missing one would show in English)', () => {
    const missing = entries()
      .filter((entry) => entry.translation === '')
      .map((entry) => `${entry.file}: "${entry.source}"`);
    expect(missing).toEqual([]);
  });

  it('keep every value, every piece of markup and the plural forms of their language', () => {
    const wrong = entries()
      .filter((entry) => entry.translation !== '')
      .flatMap((entry) => translationProblems(entry.source, entry.translation, entry.language).map((problem) => `${entry.file}: "${entry.source}" → "${entry.translation}": ${problem}`));
    expect(wrong).toEqual([]);
  });
});
