import { extractor as macroExtractor } from '@lingui/cli/api';
import type { ExtractorType } from '@lingui/conf';
import ts from 'typescript';

/**
 * Lingui's extractor (its macros, in web/src) and, in the same pass, one for the texts of shared/ and server/ (shared/i18n.ts): the calls
 * `text('…')` and `message('…', …)` whose first argument is a string literal (or a template
 * without placeholders). The English text is the message's id. A translator's note goes in a
 * comment starting with `i18n:` right above the call.
 */
const MARKERS = new Set(['text', 'message']);

/** The `i18n:` comment above the call, or above the statement or property it is part of. */
function translatorNote(code: string, call: ts.Node): string | undefined {
  for (let node: ts.Node = call; !ts.isSourceFile(node); node = node.parent) {
    const comments = ts.getLeadingCommentRanges(code, node.getFullStart()) ?? [];
    const note = comments.map((range) => code.slice(range.pos, range.end)).find((comment) => /^\/[/*]\s*i18n:/.test(comment));
    if (note) return note.replace(/^\/[/*]\s*i18n:\s*/, '').replace(/\s*\*\/$/, '');
    if (ts.isStatement(node) || ts.isPropertyAssignment(node)) return undefined;
  }
  return undefined;
}

export const extractor: ExtractorType = {
  // Lingui runs the first extractor that matches a file, so this one does both.
  match: (filename) => macroExtractor.match(filename),
  async extract(filename, code, onMessageExtracted, context) {
    await macroExtractor.extract(filename, code, onMessageExtracted, context);
    if (!/\.(ts|tsx)$/.test(filename) || !/\b(text|message)\(/.test(code)) return;
    const source = ts.createSourceFile(filename, code, ts.ScriptTarget.Latest, true, filename.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && MARKERS.has(node.expression.text)) {
        const [first] = node.arguments;
        if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) {
          const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
          const note = translatorNote(code, node);
          onMessageExtracted({
            id: first.text,
            origin: [filename, line + 1, character],
            ...(note ? { comment: note } : {}),
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  },
};
