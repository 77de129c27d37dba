import { parseIcu, type IcuNode } from 'pofile-ts';

/**
 * What a translation must keep of its English message: it parses as ICU MessageFormat, it puts in
 * the same values (`{title}`) and the same markup (`<0>…</0>`) — a value lost or renamed shows as
 * nothing, or as its name, to the reader — and every plural gives the forms the language's
 * grammar needs (Polish "2 zadania" but "5 zadań"). scripts/i18n/translations.test.ts runs it on
 * every catalog.
 */

/**
 * The plural forms a message must give in `language`: the language's own (Intl.PluralRules),
 * except "many" in French, Spanish, Italian and Portuguese, which CLDR keeps for round millions
 * ("1 million de tâches") and whose absence falls back to "other", correct there too.
 */
export function neededPluralForms(language: string): string[] {
  const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories as string[];
  const romance = ['fr', 'es', 'it', 'pt'].includes(language.split('-')[0] ?? '');
  return forms.filter((form) => !(romance && form === 'many'));
}

/** The values, tags and plurals of a parsed message, in the order they appear. */
function walk(nodes: readonly IcuNode[], found: { values: string[]; tags: string[]; plurals: string[][] }): void {
  for (const node of nodes) {
    switch (node.type) {
      case 'argument':
      case 'number':
      case 'date':
      case 'time':
        found.values.push(node.value);
        break;
      case 'tag':
        found.tags.push(node.value);
        walk(node.children, found);
        break;
      case 'plural':
      case 'select':
        found.values.push(node.value);
        if (node.type === 'plural') found.plurals.push(Object.keys(node.options).filter((key) => !key.startsWith('=')));
        for (const option of Object.values(node.options)) walk(option.value, found);
        break;
      default:
        break;
    }
  }
}

function partsOf(message: string): { values: string[]; tags: string[]; plurals: string[][] } {
  const parsed = parseIcu(message);
  if (!parsed.success) throw new Error(parsed.errors.map((error) => error.message).join('; '));
  const found = { values: [] as string[], tags: [] as string[], plurals: [] as string[][] };
  walk(parsed.ast, found);
  return found;
}

const sorted = (items: readonly string[]): string[] => [...new Set(items)].sort();

/** What is wrong with `translation` of `source` in `language`; none when it is right. */
export function translationProblems(source: string, translation: string, language: string): string[] {
  let mine: ReturnType<typeof partsOf>;
  try {
    mine = partsOf(translation);
  } catch (error) {
    return [`not valid ICU MessageFormat: ${(error as Error).message}`];
  }
  const theirs = partsOf(source);
  const problems: string[] = [];
  if (sorted(mine.values).join() !== sorted(theirs.values).join()) problems.push(`values ${sorted(mine.values).join(', ') || 'none'} instead of ${sorted(theirs.values).join(', ') || 'none'}`);
  if (sorted(mine.tags).join() !== sorted(theirs.tags).join()) problems.push(`markup <${sorted(mine.tags).join('>, <')}> instead of <${sorted(theirs.tags).join('>, <')}>`);
  const needed = neededPluralForms(language);
  for (const forms of mine.plurals) {
    const missing = needed.filter((form) => !forms.includes(form));
    if (missing.length > 0) problems.push(`a plural without the form${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  }
  return problems;
}
