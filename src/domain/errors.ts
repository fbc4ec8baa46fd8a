/** One problem with an input, named by the field it concerns ("servers.2.url"). */
export interface FieldIssue {
  readonly path: string;
  readonly message: string;
}

/** Base class: every error the app shows carries a stable `kind` that code switches on, never the text. */
export abstract class AppError extends Error {
  abstract readonly kind: string;
}

/** Input (a config, a form, an import) did not pass validation; `issues` name each field. */
export class ValidationError extends AppError {
  readonly kind = 'validation';
  constructor(
    readonly subject: string,
    readonly issues: readonly FieldIssue[],
  ) {
    super(`${subject} is invalid: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`);
    this.name = 'ValidationError';
  }
}

/** A stored record failed validation on read; the rest of the store still loads. */
export class CorruptRecordError extends AppError {
  readonly kind = 'corrupt-record';
  constructor(
    readonly store: string,
    readonly key: string,
    readonly issues: readonly FieldIssue[],
  ) {
    super(
      `Stored ${store} record "${key}" is unreadable (${issues.map((i) => `${i.path || 'record'}: ${i.message}`).join('; ')}); it was skipped.`,
    );
    this.name = 'CorruptRecordError';
  }
}

/** The browser refused a write because its storage quota is used up; nothing was written. */
export class StorageQuotaError extends AppError {
  readonly kind = 'storage-quota';
  constructor(readonly store: string) {
    super(
      `Browser storage is full, so the change to ${store} was not saved. Free space by deleting old threads, or allow this site more storage.`,
    );
    this.name = 'StorageQuotaError';
  }
}

/** IndexedDB could not be opened or was closed (private mode, blocked upgrade, newer version in another tab). */
export class StorageUnavailableError extends AppError {
  readonly kind = 'storage-unavailable';
  constructor(
    readonly reason: 'open-failed' | 'version-change' | 'closed' | 'blocked',
    detail: string,
  ) {
    super(detail);
    this.name = 'StorageUnavailableError';
  }
}

/** A write was asked for a record that does not exist (a deleted thread, an unknown profile). */
export class NotFoundError extends AppError {
  readonly kind = 'not-found';
  constructor(
    readonly store: string,
    readonly key: string,
  ) {
    super(`No ${store} record "${key}" exists.`);
    this.name = 'NotFoundError';
  }
}

/** A stored secret could not be decrypted (its key is gone or the envelope was altered). Never carries the secret. */
export class SecretUnreadableError extends AppError {
  readonly kind = 'secret-unreadable';
  constructor(
    readonly owner: string,
    readonly slot: string,
  ) {
    super(`The stored ${slot} for ${owner} cannot be decrypted; enter it again.`);
    this.name = 'SecretUnreadableError';
  }
}

/** The profile's secrets are locked under its passphrase; nothing is read or written until it is entered. */
export class VaultLockedError extends AppError {
  readonly kind = 'vault-locked';
  constructor() {
    super('Locked: enter your passphrase.');
    this.name = 'VaultLockedError';
  }
}

/** The passphrase typed does not unwrap the profile's key. */
export class WrongPassphraseError extends AppError {
  readonly kind = 'wrong-passphrase';
  constructor() {
    super('Wrong passphrase. The secrets stay locked; try again.');
    this.name = 'WrongPassphraseError';
  }
}

/** Another tab changed the vault's key while this tab was re-encrypting; nothing was written. */
export class VaultChangedError extends AppError {
  readonly kind = 'vault-changed';
  constructor() {
    super('The passphrase was changed in another tab meanwhile; nothing was changed here. Try again.');
    this.name = 'VaultChangedError';
  }
}

/** The text to show for a caught error: an AppError's own message, anything else as it prints. */
export function describeError(error: unknown): string {
  return error instanceof AppError ? error.message : String(error);
}

/** Exhaustiveness check for switches over unions. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}

/** A list read from storage: the records that parsed, and a typed error for each that did not. */
export interface Loaded<T> {
  readonly items: T[];
  readonly skipped: CorruptRecordError[];
}
