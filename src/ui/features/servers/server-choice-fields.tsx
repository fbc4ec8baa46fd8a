import type { FieldErrors, ServerForm } from '../../../stores/servers-store';
import { FormField } from './form-field';

const AUTH_OPTIONS: readonly [ServerForm['auth'], string][] = [
  ['none', 'None'],
  ['bearer', 'Bearer token'],
  ['headers', 'Custom headers'],
  ['oauth', 'OAuth (sign in)'],
];
const TRANSPORT_OPTIONS: readonly [ServerForm['transport'], string][] = [
  ['auto', 'Automatic'],
  ['http', 'Streamable HTTP'],
  ['sse', 'HTTP+SSE (legacy)'],
];
// Short labels, so the closed select shows them whole in a form column; the hint under it says what each does.
const DEFER_OPTIONS: readonly [string, ServerForm['deferTools'], string, string][] = [
  ['settings', true, 'As in tool search settings', 'Deferred when the tool search settings say so'],
  ['load', false, 'Always load', 'Sent in every model call, never behind tool search'],
  ['defer', 'always', 'Always defer', 'Found through tool search, even when the tools are few'],
];

/** The server form's three choices: transport, whether its tools wait behind tool search, and how it signs in. */
export function ServerChoiceFields({
  form,
  errors,
  set,
}: {
  form: ServerForm;
  errors: FieldErrors;
  set: (change: Partial<ServerForm>) => void;
}) {
  return (
    <>
      <FormField
        label="Transport"
        error={errors.transport}
        hint={form.transport === 'auto' ? 'Streamable HTTP, or HTTP+SSE for older servers' : undefined}
      >
        {(props) => (
          <select
            {...props}
            value={form.transport}
            onChange={(e) => set({ transport: e.target.value as ServerForm['transport'] })}
          >
            {TRANSPORT_OPTIONS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField
        label="Tools of this server"
        hint={(DEFER_OPTIONS.find(([, value]) => value === form.deferTools) ?? DEFER_OPTIONS[0]!)[3]}
      >
        {(props) => (
          <select
            {...props}
            value={DEFER_OPTIONS.find(([, value]) => value === form.deferTools)?.[0] ?? 'settings'}
            onChange={(e) => set({ deferTools: DEFER_OPTIONS.find(([key]) => key === e.target.value)?.[1] ?? true })}
          >
            {DEFER_OPTIONS.map(([key, , label]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField label="Authentication">
        {(props) => (
          <select {...props} value={form.auth} onChange={(e) => set({ auth: e.target.value as ServerForm['auth'] })}>
            {AUTH_OPTIONS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        )}
      </FormField>
    </>
  );
}
