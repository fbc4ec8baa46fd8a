import { AppError } from './errors';

export type ModelFailure =
  | 'no-key'
  | 'locked'
  | 'auth'
  | 'permission'
  | 'rate-limit'
  | 'overloaded'
  | 'server'
  | 'network'
  | 'bad-request'
  | 'model-not-found'
  | 'stream-cut';

const ADVICE: Record<ModelFailure, string> = {
  'no-key': 'No API key is set. Add your Anthropic API key in Settings.',
  locked: 'Locked: enter your passphrase to use the API key.',
  auth: 'The API key was refused (401). Check it in Settings.',
  permission: 'The API key may not use this model or feature (403).',
  'rate-limit': 'The API is rate-limiting this key (429). Wait a moment and retry.',
  overloaded: 'The API is overloaded right now (529). Retry in a little while.',
  server: 'The API had an internal error. Retry in a little while.',
  network: 'The API could not be reached. Check the connection and the base URL in Settings.',
  'bad-request': 'The API refused the request.',
  'model-not-found':
    'The API does not know this model (404 not found): choose another model in Settings or in Thread settings.',
  'stream-cut': 'The answer stopped arriving before it was complete; what arrived is kept.',
};

/** A model call that failed; `reason` is what the UI switches on. Never contains the key. */
export class ModelError extends AppError {
  readonly kind = 'model';
  constructor(
    readonly reason: ModelFailure,
    /** The API's own words (a 400's message), when it gave some. */
    readonly detail?: string,
    readonly status?: number,
  ) {
    super(detail ? `${ADVICE[reason]} (${detail})` : ADVICE[reason]);
    this.name = 'ModelError';
  }
}
