import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { isPostgres, useTestApp } from './helpers.ts';

/**
 * server/db/schema.ts is written by hand: the types every query is checked against. This file
 * holds it to the database the migrations build, both ways, on the database of the run: every
 * table and column of the migrated database is in schema.ts and every one of schema.ts is in the
 * database, with a type the driver really returns and the same nullability. A migration that
 * forgets schema.ts (or a schema.ts edit no migration made) fails here.
 *
 * schema.ts is read by the TypeScript compiler itself (its type checker resolves the aliases
 * from shared/ and kysely's `Generated`), not by a second description kept beside it: see
 * docs/decisions/116-schema-types-checked-against-the-migrated-database.md.
 */
const t = useTestApp();

type Kind = 'string' | 'number' | 'string | number';
interface Column {
  kind: Kind;
  nullable: boolean;
  /** Insert may leave it out: `Generated<…>` in schema.ts; a default, identity or NULL in the database. */
  optional: boolean;
}
/** table → column → description, both in the database's snake_case names. */
type Tables = Map<string, Map<string, Column>>;

/** CamelCasePlugin's mapping (kysely's default options): `boardId` → `board_id`. */
const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

function readSchemaTypes(): Tables {
  const file = fileURLToPath(new URL('../db/schema.ts', import.meta.url));
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    // The language only (no DOM): the table types need nothing else, and it loads in a third of the time.
    lib: ['lib.es2022.d.ts'],
    types: [],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
  });
  const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  if (problems.length > 0) throw new Error(`schema.ts does not compile on its own:\n${problems.join('\n')}`);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const db = source?.statements.find((node) => ts.isInterfaceDeclaration(node) && node.name.text === 'DB');
  if (db === undefined) throw new Error('schema.ts has no interface DB');

  const tables: Tables = new Map();
  for (const table of checker.getTypeAtLocation(db).getProperties()) {
    const columns = new Map<string, Column>();
    for (const column of checker.getTypeOfSymbol(table).getProperties()) {
      let type = checker.getTypeOfSymbol(column);
      // Generated<T> is ColumnType<T, T | undefined, T>: { __select__: T, __insert__: T | undefined, … }.
      const select = type.getProperty('__select__');
      const insert = type.getProperty('__insert__');
      if (select !== undefined) type = checker.getTypeOfSymbol(select);
      const insertType = insert === undefined ? undefined : checker.getTypeOfSymbol(insert);
      const optional = insertType !== undefined && insertType.isUnion() && insertType.types.some((part) => (part.flags & ts.TypeFlags.Undefined) !== 0);
      let nullable = false;
      const kinds = new Set<'string' | 'number'>();
      for (const part of type.isUnion() ? type.types : [type]) {
        if (part.flags & ts.TypeFlags.Null) nullable = true;
        else if (part.flags & ts.TypeFlags.StringLike) kinds.add('string');
        else if (part.flags & ts.TypeFlags.NumberLike) kinds.add('number');
        else throw new Error(`schema.ts: ${table.name}.${column.name} has a type no driver returns: ${checker.typeToString(type)}`);
      }
      const kind: Kind = kinds.size === 2 ? 'string | number' : kinds.has('number') ? 'number' : 'string';
      columns.set(snake(column.name), { kind, nullable, optional });
    }
    tables.set(snake(table.name), columns);
  }
  return tables;
}

/**
 * Columns kept out of schema.ts on purpose, described here instead and held to the database the
 * same way. The list must stay exact: an entry the database no longer has fails too.
 */
const outsideSchemaTs: { name: string; only?: 'sqlite' | 'postgres'; column: Column; why: string }[] = [
  {
    name: 'tasks.next_reminder_at',
    column: { kind: 'string', nullable: true, optional: true },
    why: 'only the reminder schedule reads it, through $extendTables (repositories/outbox-repository.ts)',
  },
  {
    name: 'task_search_keys.key',
    only: 'sqlite',
    column: { kind: 'number', nullable: false, optional: true },
    why: "the FTS index's integer rowids, kept by triggers and never queried by the app (migration 0005)",
  },
  {
    name: 'task_search_keys.task_id',
    only: 'sqlite',
    column: { kind: 'string', nullable: false, optional: false },
    why: "the FTS index's integer rowids, kept by triggers and never queried by the app (migration 0005)",
  },
];

/**
 * The declared types that hand the app each kind: node:sqlite returns INTEGER as a number and
 * TEXT as a string; pg returns int2/int4 as a number, text as a string and int8 as a string
 * (events.id, `string | number` in schema.ts for that reason).
 */
const compatible: Record<Kind, { sqlite: string[]; postgres: string[] }> = {
  string: { sqlite: ['TEXT'], postgres: ['text', 'character varying'] },
  number: { sqlite: ['INTEGER'], postgres: ['integer', 'smallint'] },
  'string | number': { sqlite: ['INTEGER'], postgres: ['bigint'] },
};

interface DatabaseColumn {
  table: string;
  column: string;
  type: string;
  nullable: boolean;
  optional: boolean;
}

async function readDatabase(): Promise<DatabaseColumn[]> {
  const db = t.app.db.withoutPlugins();
  if (isPostgres) {
    const { rows } = await sql<{ tbl: string; col: string; type: string; nullable: string; dflt: string | null; ident: string }>`
      select c.table_name as tbl, c.column_name as col, c.data_type as type, c.is_nullable as nullable,
             c.column_default as dflt, c.is_identity as ident
      from information_schema.columns c
      join information_schema.tables s on s.table_schema = c.table_schema and s.table_name = c.table_name
      where c.table_schema = current_schema() and s.table_type = 'BASE TABLE'
        and c.table_name not in ('kysely_migration', 'kysely_migration_lock')`.execute(db);
    return rows.map((row) => ({
      table: row.tbl,
      column: row.col,
      type: row.type,
      nullable: row.nullable === 'YES',
      optional: row.nullable === 'YES' || row.dflt !== null || row.ident === 'YES',
    }));
  }
  // Ordinary tables only: FTS5 keeps its index in virtual and shadow tables of its own.
  const { rows } = await sql<{ tbl: string; col: string; type: string; required: number; dflt: string | null; pk: number }>`
    select l.name as tbl, p.name as col, p.type as type, p."notnull" as required, p.dflt_value as dflt, p.pk as pk
    from pragma_table_list l join pragma_table_info(l.name) p
    where l.schema = 'main' and l.type = 'table' and l.name not like 'sqlite_%'
      and l.name not in ('kysely_migration', 'kysely_migration_lock')`.execute(db);
  const integerKey = new Set(rows.filter((row) => row.pk > 0).map((row) => row.tbl).filter((table) => rows.filter((row) => row.tbl === table && row.pk > 0).length === 1));
  return rows.map((row) => {
    // An INTEGER PRIMARY KEY is the rowid: SQLite fills it in.
    const rowid = row.pk > 0 && integerKey.has(row.tbl) && row.type.toUpperCase() === 'INTEGER';
    // A primary key column counts as NOT NULL: SQLite lets one that is not the rowid hold NULL
    // unless declared so (a bug kept for compatibility, https://sqlite.org/lang_createtable.html#the_primary_key);
    // the same tables on PostgreSQL forbid it, and the app never writes a key without a value.
    const nullable = row.required === 0 && row.pk === 0;
    return { table: row.tbl, column: row.col, type: row.type.toUpperCase(), nullable, optional: nullable || row.dflt !== null || rowid };
  });
}

describe('server/db/schema.ts against the migrated database', () => {
  let types: Tables;
  let database: DatabaseColumn[] | undefined;
  beforeAll(() => {
    types = readSchemaTypes();
    for (const extra of outsideSchemaTs) {
      if (extra.only !== undefined && extra.only !== (isPostgres ? 'postgres' : 'sqlite')) continue;
      const [table = '', column = ''] = extra.name.split('.');
      if (types.get(table)?.has(column)) throw new Error(`${extra.name} is in schema.ts now: take it off the list`);
      types.set(table, new Map([...(types.get(table) ?? []), [column, extra.column]]));
    }
  });

  it('has every table and column of the database, and the database every one of schema.ts', async () => {
    database ??= await readDatabase();
    const inDatabase = database.map((c) => `${c.table}.${c.column}`).sort();
    const inSchema = [...types].flatMap(([table, columns]) => [...columns.keys()].map((column) => `${table}.${column}`)).sort();
    expect({ missingFromSchemaTs: inDatabase.filter((name) => !inSchema.includes(name)), missingFromDatabase: inSchema.filter((name) => !inDatabase.includes(name)) }).toEqual({
      missingFromSchemaTs: [],
      missingFromDatabase: [],
    });
    expect(types.size).toBeGreaterThanOrEqual(25);
  });

  it('gives each column a type the driver returns, its nullability, and Generated only where insert may leave it out', async () => {
    database ??= await readDatabase();
    const wrong: string[] = [];
    for (const column of database) {
      const declared = types.get(column.table)?.get(column.column);
      if (declared === undefined) continue; // reported by the test above
      const name = `${column.table}.${column.column}`;
      const accepted = compatible[declared.kind][isPostgres ? 'postgres' : 'sqlite'];
      if (!accepted.includes(column.type)) wrong.push(`${name}: schema.ts ${declared.kind}, database ${column.type} (expected ${accepted.join(' or ')})`);
      if (declared.nullable !== column.nullable) wrong.push(`${name}: schema.ts ${declared.nullable ? 'allows' : 'forbids'} null, the database ${column.nullable ? 'allows' : 'forbids'} it`);
      if (declared.optional && !column.optional) wrong.push(`${name}: Generated in schema.ts, but the database has no default for it`);
    }
    expect(wrong).toEqual([]);
  });
});
