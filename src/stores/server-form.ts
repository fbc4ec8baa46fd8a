import type { ValidationError } from '../domain/errors';
import {
  BEARER_SLOT,
  ServerConfig,
  headerNameProblem,
  headerSlot,
  headerValueProblem,
  serverUrlProblem,
  type AuthConfig,
  type AuthKind,
  type ServerConfigInput,
  type ServerDeferTools,
  type TransportPreference,
} from '../domain/server-config';
import type { PendingSecrets } from '../mcp/registry';
import { OAUTH_SLOTS } from '../mcp/oauth-provider';

/** One custom header row of the form; the value is a secret and blank means "keep the stored one". */
export interface HeaderRow {
  readonly name: string;
  readonly value: string;
}

/** What the add and edit forms hold. Secret fields (token, header values, client secret) left blank keep what is stored. */
export interface ServerForm {
  readonly name: string;
  readonly url: string;
  readonly transport: TransportPreference;
  readonly auth: AuthKind;
  readonly token: string;
  readonly headers: readonly HeaderRow[];
  readonly clientId: string;
  readonly clientSecret: string;
  /** "Route through relay": every request of this server goes through the CORS relay. */
  readonly viaRelay: boolean;
  /** "Tools of this server": as the tool search settings say (true), always loaded (false) or always deferred. */
  readonly deferTools: ServerDeferTools;
}

export const EMPTY_SERVER_FORM: ServerForm = {
  name: '',
  url: '',
  transport: 'auto',
  auth: 'none',
  token: '',
  headers: [{ name: '', value: '' }],
  clientId: '',
  clientSecret: '',
  viaRelay: false,
  deferTools: true,
};

/** The form without what it holds of secrets (token, client secret, header values): what may be kept as a draft. */
export const withoutSecrets = (form: ServerForm): ServerForm => ({
  ...form,
  token: '',
  clientSecret: '',
  headers: form.headers.map((row) => ({ ...row, value: '' })),
});

/**
 * Messages by field: "name", "url", "transport", "token", "headers", "headers.<i>.name", "headers.<i>.value",
 * "clientId", "clientSecret", and "form" for what belongs to no single field.
 */
export type FieldErrors = Readonly<Record<string, string>>;

/** What the vault already holds for the server being edited (nothing for a new one). */
export interface StoredSecrets {
  readonly hasToken: boolean;
  /** Lower-cased names of the headers whose values are stored. */
  readonly headerNames: ReadonlySet<string>;
  /** Why a blank secret field must be filled in, when "is required" does not say it. */
  readonly requiredReason?: string;
  /** A client secret was stored for this client ID at the old origin: kept with that client ID, it must be given again. */
  readonly clientSecretOf?: string;
}

export const NOTHING_STORED: StoredSecrets = { hasToken: false, headerNames: new Set() };

/** A server whose URL moves to another origin: what is stored stays with the old one, so every secret is asked again. */
export const ORIGIN_CHANGED: StoredSecrets = {
  hasToken: false,
  headerNames: new Set(),
  requiredReason:
    'must be entered again: the URL now points at another origin, and a saved secret is only sent where it was given',
};

/** The form's rows that carry anything (a fully blank row is ignored). */
export function filledHeaders(form: ServerForm): HeaderRow[] {
  return form.headers.filter((row) => row.name.trim() || row.value);
}

/** Whether an edit changes how the server is reached (address, transport, relay, credentials), not only its name or tools. */
export function changesConnection(before: ServerForm, after: ServerForm): boolean {
  const reach = (form: ServerForm) =>
    JSON.stringify([
      form.url.trim(),
      form.transport,
      form.viaRelay,
      form.auth,
      form.token,
      form.clientId.trim(),
      form.clientSecret,
      filledHeaders(form).map((row) => [row.name.trim().toLowerCase(), row.value]),
    ]);
  return reach(before) !== reach(after);
}

/** Checks every field; an empty result means the form can be saved. */
export function checkServerForm(form: ServerForm, stored: StoredSecrets = NOTHING_STORED): FieldErrors {
  const errors: Record<string, string> = {};
  const name = ServerConfig.shape.name.safeParse(form.name);
  if (!name.success) errors.name = name.error.issues[0]?.message ?? 'Server name is invalid';
  const urlProblem = form.url.trim() ? serverUrlProblem(form.url.trim()) : 'is required';
  if (urlProblem) errors.url = `Server URL ${urlProblem}`;
  if (form.auth === 'bearer') {
    const problem = form.token
      ? headerValueProblem(form.token)
      : stored.hasToken
        ? undefined
        : (stored.requiredReason ?? 'is required');
    if (problem) errors.token = `Bearer token ${problem}`;
  }
  if (form.auth === 'headers') checkHeaders(form, stored, errors);
  if (form.auth === 'oauth' && !form.clientId.trim() && form.clientSecret)
    errors.clientId = 'A client secret needs the client ID it belongs to';
  if (
    form.auth === 'oauth' &&
    !form.clientSecret &&
    stored.clientSecretOf &&
    form.clientId.trim() === stored.clientSecretOf
  )
    errors.clientSecret = `Client secret ${stored.requiredReason ?? 'is required'}`;
  return errors;
}

function checkHeaders(form: ServerForm, stored: StoredSecrets, errors: Record<string, string>): void {
  const seen = new Set<string>();
  let count = 0;
  form.headers.forEach((row, index) => {
    if (!row.name.trim() && !row.value) return;
    count++;
    const key = row.name.trim().toLowerCase();
    const nameProblem = headerNameProblem(row.name) ?? (seen.has(key) ? 'This header is already listed' : undefined);
    if (nameProblem) errors[`headers.${index}.name`] = nameProblem;
    seen.add(key);
    const valueProblem = row.value
      ? headerValueProblem(row.value)
      : stored.headerNames.has(key)
        ? undefined
        : (stored.requiredReason ?? 'is required');
    if (valueProblem) errors[`headers.${index}.value`] = `Header value ${valueProblem}`;
  });
  if (count === 0) errors.headers = 'Add at least one header, or choose another kind of authentication';
}

/** The config the form describes; what the form does not show (tool overrides, enabled) is kept from `base`. */
export function configFromForm(
  form: ServerForm,
  id: string,
  base?: ServerConfig,
): ServerConfigInput & { auth: AuthConfig } {
  const clientId = form.clientId.trim();
  const auth: AuthConfig =
    form.auth === 'headers'
      ? { kind: 'headers', headerNames: filledHeaders(form).map((row) => row.name.trim()) }
      : form.auth === 'oauth'
        ? {
            kind: 'oauth',
            ...(clientId ? { clientId } : {}),
            ...(base?.auth.kind === 'oauth' && base.auth.scopes ? { scopes: base.auth.scopes } : {}),
          }
        : { kind: form.auth };
  return {
    ...base,
    id,
    name: form.name.trim(),
    url: form.url.trim(),
    transport: form.transport,
    auth,
    viaRelay: form.viaRelay,
    deferTools: form.deferTools,
  };
}

/** The secrets typed into the form, by vault slot (blank fields are left out, so stored values stay). */
export function pendingSecrets(form: ServerForm): PendingSecrets {
  const slots: Record<string, string> = {};
  if (form.auth === 'bearer' && form.token) slots[BEARER_SLOT] = form.token;
  if (form.auth === 'headers')
    for (const row of filledHeaders(form)) if (row.value) slots[headerSlot(row.name.trim())] = row.value;
  if (form.auth === 'oauth' && form.clientSecret) slots[OAUTH_SLOTS.clientSecret] = form.clientSecret;
  return slots;
}

/** A form for an existing server: its settings, with every secret field blank. */
export function formFromConfig(config: ServerConfig): ServerForm {
  const { auth } = config;
  return {
    ...EMPTY_SERVER_FORM,
    name: config.name,
    url: config.url,
    transport: config.transport,
    auth: auth.kind,
    headers:
      auth.kind === 'headers' ? auth.headerNames.map((name) => ({ name, value: '' })) : EMPTY_SERVER_FORM.headers,
    clientId: auth.kind === 'oauth' ? (auth.clientId ?? '') : '',
    viaRelay: config.viaRelay,
    deferTools: config.deferTools,
  };
}

/** Maps a ValidationError from the registry or storage (a name clash, say) to the form's fields. */
export function fieldErrorsOf(error: ValidationError): FieldErrors {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const [head, second, index] = issue.path.split('.');
    const field =
      head === 'auth' && second === 'headerNames' && index !== undefined
        ? `headers.${index}.name`
        : head && ['name', 'url', 'transport'].includes(head)
          ? head
          : 'form';
    errors[field] ??= issue.message;
  }
  return errors;
}
