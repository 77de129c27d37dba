/**
 * The account export as a stream of text: the same document as `JSON.stringify(data, null, 2)`,
 * written piece by piece while its long lists are read page by page, so neither the rows nor
 * the text of a large account are ever held whole in memory.
 */

/** `JSON.stringify(value, null, 2)` as it reads `depth` levels down in the document. */
const nested = (value: unknown, depth: number) => JSON.stringify(value, null, 2).replaceAll('\n', `\n${'  '.repeat(depth)}`);

/** A top-level list, from its pages, as `JSON.stringify` indents it. */
async function* list(pages: AsyncIterable<readonly unknown[]>): AsyncGenerator<string> {
  let empty = true;
  for await (const page of pages) {
    for (const item of page) {
      yield `${empty ? '[' : ','}\n    ${nested(item, 2)}`;
      empty = false;
    }
  }
  yield empty ? '[]' : '\n  ]';
}

/** An object of the small `fields` first, then the `lists`, each read page by page. */
export async function* jsonDocument(fields: Record<string, unknown>, lists: Record<string, AsyncIterable<readonly unknown[]>>): AsyncGenerator<string> {
  let separator = '{';
  for (const [key, value] of Object.entries(fields)) {
    yield `${separator}\n  ${JSON.stringify(key)}: ${nested(value, 1)}`;
    separator = ',';
  }
  for (const [key, pages] of Object.entries(lists)) {
    yield `${separator}\n  ${JSON.stringify(key)}: `;
    yield* list(pages);
    separator = ',';
  }
  yield separator === '{' ? '{}' : '\n}';
}

/** Pages of at most `size` items from `read(after)`, which continues after the item `after` (undefined: from the start). */
export async function* pagesOf<T>(size: number, read: (after: T | undefined) => Promise<T[]>): AsyncGenerator<T[]> {
  let after: T | undefined;
  for (;;) {
    const page = await read(after);
    yield page;
    after = page.at(-1);
    if (page.length < size || after === undefined) return;
  }
}
