import { CompiledQuery, type DatabaseConnection } from 'kysely';

/** Upper bound of cached statements; our SQL texts are a small fixed set, this only guards mistakes. */
export const STATEMENT_CACHE_MAX = 500;

/** Runs the begin, commit and rollback of a transaction as plain statements on a connection. */
export const run = (connection: DatabaseConnection, sqlText: string) => connection.executeQuery(CompiledQuery.raw(sqlText));
