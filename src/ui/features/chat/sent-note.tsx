import { formatBytes } from '../../../domain/byte-size';
import type { SentToModel } from '../../../domain/trace';

/** What of a tool result the model received, within which cap, and what was left out. */
export function SentNote({ sent }: { sent: SentToModel }) {
  const images =
    sent.images > 0 ? `, ${sent.images} image${sent.images === 1 ? '' : 's'} (${formatBytes(sent.imageBytes)})` : '';
  return (
    <div className="muted sent-to-model">
      {sent.isTruncated && sent.fullChars !== undefined ? (
        <p>
          Sent to the model: the first {sent.textChars.toLocaleString('en')} of {sent.fullChars.toLocaleString('en')}{' '}
          characters of text (the cap){images}, with a note that the rest was cut.
        </p>
      ) : (
        <p>
          Sent to the model: {sent.textChars.toLocaleString('en')} characters of text{images}; the cap is{' '}
          {sent.capChars.toLocaleString('en')} characters{sent.isTruncated ? ' (the text was cut to it)' : ''}.
        </p>
      )}
      {sent.leftOut.length > 0 && (
        <ul>
          {sent.leftOut.map((why, i) => (
            <li key={i}>Not sent: {why}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
