import { useId } from 'react';
import { isCodeExecutionMode, type CodeExecutionMode } from '../../../domain/code-names';

/** The thread's "code" choice: as in Settings, in this page's sandbox, in Anthropic's container, or off. */
export type ThreadCodeChoice = CodeExecutionMode | 'profile';

/** The thread's own "code" setting (over the profile's, over the app's). */
export function ThreadCodeSetting({
  value,
  onChange,
}: {
  value: ThreadCodeChoice;
  onChange: (value: ThreadCodeChoice) => void;
}) {
  const id = useId();
  const helpId = useId();
  return (
    <>
      <label htmlFor={id}>Code</label>
      <select
        id={id}
        aria-describedby={helpId}
        value={value}
        onChange={(e) => onChange(isCodeExecutionMode(e.target.value) ? e.target.value : 'profile')}
      >
        <option value="profile">As in Settings</option>
        <option value="local">In this page (sandbox)</option>
        <option value="anthropic">In Anthropic&apos;s container</option>
        <option value="off">Off</option>
      </select>
      <p id={helpId} className="muted">
        The model writes code that calls this thread&apos;s tools: JavaScript in a sandbox in this page, or Python in
        Anthropic&apos;s code execution container (each call still comes here for approval).
      </p>
    </>
  );
}
