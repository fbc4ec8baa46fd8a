import { reportedElsewhere } from '../domain/logger';
import type { IDBPTransaction } from 'idb';
import type { z } from 'zod';
import {
  AppError,
  CorruptRecordError,
  StorageQuotaError,
  StorageUnavailableError,
  type Loaded,
} from '../domain/errors';
import { schemaGuard } from '../domain/schema-guard';
import { parseOrThrow, toFieldIssues } from '../domain/validation';
import type { AppDatabase, AppSchema, AppStoreName } from '../platform/database-schema';

/**
 * Parses one stored record, or throws a CorruptRecordError naming it. A record that passes the schema's
 * guard is exactly what zod would give back, so it is returned itself rather than copied (a read from
 * IndexedDB is a fresh copy already); any other record goes through zod, which gives the result or the error.
 */
export function parseRecord<S extends z.ZodType>(schema: S, store: string, key: string, value: unknown): z.output<S> {
  if (schemaGuard(schema)(value)) return value as z.output<S>;
  const result = schema.safeParse(value);
  if (!result.success) throw new CorruptRecordError(store, key, toFieldIssues(result.error));
  return result.data;
}

/**
 * Checks a value about to be written, or throws a ValidationError naming `subject`'s fields: `parseOrThrow` with the
 * schema's guard first, as `parseRecord` reads (what the guard takes is written as it is, unchanged by zod).
 */
export function parseForWrite<S extends z.ZodType>(schema: S, value: unknown, subject: string): z.output<S> {
  return schemaGuard(schema)(value) ? (value as z.output<S>) : parseOrThrow(schema, value, subject);
}

/** Parses a list of stored records, keeping the good ones and reporting each bad one. */
export function parseEach<S extends z.ZodType>(
  schema: S,
  store: string,
  values: readonly unknown[],
  keyOf: (value: unknown) => string,
): Loaded<z.output<S>> {
  const items: z.output<S>[] = [];
  const skipped: CorruptRecordError[] = [];
  for (const value of values) {
    try {
      items.push(parseRecord(schema, store, keyOf(value), value));
    } catch (error) {
      if (error instanceof CorruptRecordError) skipped.push(error);
      else throw error;
    }
  }
  return { items, skipped };
}

/** Reads a record's identifying field for error messages without trusting its shape. */
export function keyField(field: string): (value: unknown) => string {
  return (value) => {
    const key = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[field] : undefined;
    return typeof key === 'string' ? key : '(unknown)';
  };
}

export type WriteTx<N extends AppStoreName[]> = IDBPTransaction<AppSchema, N, 'readwrite'>;

/**
 * Runs `work` in one readwrite transaction: all of it is stored or none of it. Only IndexedDB requests
 * may be awaited inside (anything else lets the transaction commit early). Quota and closed-database
 * failures come out as typed errors.
 */
export async function writeTransaction<N extends AppStoreName[], R>(
  db: AppDatabase,
  stores: N,
  work: (tx: WriteTx<N>) => Promise<R>,
): Promise<R> {
  let tx: WriteTx<N>;
  try {
    tx = db.transaction(stores, 'readwrite');
  } catch (error) {
    throw classifyWriteError(error, stores);
  }
  try {
    const result = await work(tx);
    await tx.done;
    return result;
  } catch (error) {
    tx.done.catch(reportedElsewhere); // The error is the one thrown below.
    try {
      tx.abort();
    } catch {
      // Already finished or aborted: nothing left to undo.
    }
    throw classifyWriteError(error, stores);
  }
}

function classifyWriteError(error: unknown, stores: readonly string[]): unknown {
  if (error instanceof AppError) return error;
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'QuotaExceededError') return new StorageQuotaError(stores.join(', '));
  if (name === 'InvalidStateError')
    return new StorageUnavailableError(
      'closed',
      'Storage was closed (the app was updated in another tab). Reload the page.',
    );
  return error;
}
