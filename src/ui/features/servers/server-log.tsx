import { useId, useState } from 'react';
import { isAtLeast, LOG_LEVELS, type LogLevel, type ServerLogEntry } from '../../../domain/server-log';

/** Entries the view renders at most, the newest. */
const SHOWN = 200;

/** A server's log messages (`notifications/message`), filtered by least level; its text is shown as plain text. */
export function ServerLog({ name, entries }: { name: string; entries: readonly ServerLogEntry[] }) {
  const [minimum, setMinimum] = useState<LogLevel>('debug');
  const selectId = useId();
  if (entries.length === 0) return null;
  const shown = entries.filter((e) => isAtLeast(e.level, minimum));
  return (
    <details className="server-log">
      <summary>Log ({entries.length})</summary>
      <label htmlFor={selectId}>Show from level</label>{' '}
      <select id={selectId} value={minimum} onChange={(e) => setMinimum(e.target.value as LogLevel)}>
        {LOG_LEVELS.map((level) => (
          <option key={level} value={level}>
            {level}
          </option>
        ))}
      </select>
      {shown.length === 0 ? (
        <p className="muted">No messages at {minimum} or above.</p>
      ) : (
        <ol className="server-log-entries" aria-label={`Log of ${name}`}>
          {shown.slice(-SHOWN).map((entry, i) => (
            <li key={`${entry.at}-${i}`} className={`log-${entry.level}`}>
              <span className="muted">{new Date(entry.at).toLocaleTimeString()}</span>{' '}
              <span className="log-level">{entry.level}</span>
              {entry.logger ? <span className="muted"> {entry.logger}</span> : null} <span>{entry.text}</span>
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
