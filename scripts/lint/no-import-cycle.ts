import { relative } from 'node:path';
import type { Rule } from 'eslint';
import ts from 'typescript';

/**
 * ESLint rule `taskwise/no-import-cycle`: no file reaches itself again through its imports, and
 * every import counts — `import type`, `export … from`, `import()` and `typeof import()` too.
 * eslint-plugin-import-x's no-cycle skips type-only imports and has no option to count them, yet
 * a cycle closed by a type edge still ties the modules into one knot that cannot be split.
 *
 * The graph comes from the TypeScript program typed linting already built (one per tsconfig), so
 * module resolution is TypeScript's own (package.json `imports`, `.ts` extensions); it is built
 * once per program and its strongly connected components found with Tarjan's algorithm.
 */

interface Edge { target: string; start: number; end: number }
interface Graph { edges: Map<string, Edge[]>; component: Map<string, number> }

const graphs = new WeakMap<ts.Program, Graph>();

function specifiers(sourceFile: ts.SourceFile): ts.StringLiteralLike[] {
  const found: ts.StringLiteralLike[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteralLike(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteralLike(node.moduleReference.expression)) {
      found.push(node.moduleReference.expression);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      found.push(node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteralLike(node.argument.literal)) {
      found.push(node.argument.literal);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

function buildGraph(program: ts.Program): Graph {
  const options = program.getCompilerOptions();
  const cache = ts.createModuleResolutionCache(program.getCurrentDirectory(), (name) => name, options);
  const ownFiles = program.getSourceFiles().filter((file) => !file.isDeclarationFile && !program.isSourceFileFromExternalLibrary(file));
  const known = new Set(ownFiles.map((file) => file.fileName));
  const edges = new Map<string, Edge[]>();
  for (const file of ownFiles) {
    const out: Edge[] = [];
    for (const literal of specifiers(file)) {
      const mode = ts.getModeForUsageLocation(file, literal, options);
      const resolved = ts.resolveModuleName(literal.text, file.fileName, options, ts.sys, cache, undefined, mode).resolvedModule;
      if (resolved && !resolved.isExternalLibraryImport && known.has(resolved.resolvedFileName)) {
        out.push({ target: resolved.resolvedFileName, start: literal.getStart(file), end: literal.getEnd() });
      }
    }
    edges.set(file.fileName, out);
  }

  // Tarjan's strongly connected components; a component of one file counts only if it imports itself.
  const component = new Map<string, number>();
  const marks = new Map<string, { index: number; low: number }>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  let components = 0;
  const connect = (file: string): { index: number; low: number } => {
    const mark = { index: marks.size, low: marks.size };
    marks.set(file, mark);
    stack.push(file);
    onStack.add(file);
    for (const { target } of edges.get(file) ?? []) {
      const seen = marks.get(target);
      if (!seen) mark.low = Math.min(mark.low, connect(target).low);
      else if (onStack.has(target)) mark.low = Math.min(mark.low, seen.index);
    }
    if (mark.low === mark.index) {
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.set(member, components);
      } while (member !== file);
      components += 1;
    }
    return mark;
  };
  for (const file of edges.keys()) {
    if (!marks.has(file)) connect(file);
  }
  return { edges, component };
}

/** The shortest way from `from` to `to` inside their component, as file names. */
function shortestPath(graph: Graph, from: string, to: string): string[] {
  const previous = new Map<string, string>();
  const queue = [from];
  for (let file = queue.shift(); file !== undefined && file !== to; file = queue.shift()) {
    for (const { target } of graph.edges.get(file) ?? []) {
      if (target !== from && !previous.has(target) && graph.component.get(target) === graph.component.get(from)) {
        previous.set(target, file);
        queue.push(target);
      }
    }
  }
  const path = [to];
  for (let step = previous.get(to); step !== undefined && path[0] !== from; step = previous.get(step)) path.unshift(step);
  return path;
}

export const noImportCycle: Rule.RuleModule = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles, type-only imports included.' },
    schema: [],
    messages: { cycle: 'Import cycle (type-only imports count): {{path}}.' },
  },
  create(context) {
    const program = (context.sourceCode.parserServices as { program?: ts.Program | null } | undefined)?.program;
    if (!program) return {};
    return {
      Program() {
        let graph = graphs.get(program);
        if (!graph) {
          graph = buildGraph(program);
          graphs.set(program, graph);
        }
        const file = program.getSourceFile(context.physicalFilename)?.fileName;
        if (file === undefined) return;
        for (const edge of graph.edges.get(file) ?? []) {
          if (graph.component.get(edge.target) !== graph.component.get(file)) continue;
          const path = [file, ...shortestPath(graph, edge.target, file)].map((name) => relative(context.cwd, name));
          context.report({
            loc: { start: context.sourceCode.getLocFromIndex(edge.start), end: context.sourceCode.getLocFromIndex(edge.end) },
            messageId: 'cycle',
            data: { path: path.join(' → ') },
          });
        }
      },
    };
  },
};
