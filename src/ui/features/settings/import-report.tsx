import type { ImportProblem } from '../../../domain/config-import';
import type { ImportReport } from '../../../stores/config-transfer';
import { useReportFocus } from '../../hooks/report-focus';
import type { SettingsActions } from '../../../stores/settings-actions';
import { SecretEntry } from './secret-entry';

/** What an import did: imported, not imported (with why), ignored fields, and servers that still need a secret. */
export function ImportReportView({
  report,
  storeSecret,
}: {
  report: ImportReport;
  storeSecret: SettingsActions['storeServerSecret'];
}) {
  const box = useReportFocus<HTMLDivElement>(report);
  if (!report.ok) {
    return (
      <div className="import-report" role="alert" aria-label="Import report" ref={box} tabIndex={-1}>
        <p className="field-error">{report.message}</p>
      </div>
    );
  }
  const nothing = report.imported.length === 0 && report.rejected.length === 0;
  return (
    <div className="import-report" role="region" aria-label="Import report" ref={box} tabIndex={-1}>
      <h4>Import report</h4>
      {nothing && <p>The file holds nothing to import.</p>}
      <ImportedLists imported={report.imported} rejected={report.rejected} />
      {report.ignored.length > 0 && <p className="muted">Unknown fields left out: {report.ignored.join(', ')}.</p>}
      {report.needsSecrets.length > 0 && (
        <>
          <h5>Needs a secret before it can connect</h5>
          <ul aria-label="Needs a secret" className="needs-secret">
            {report.needsSecrets.map((need) => (
              <li key={need.serverId}>
                <SecretEntry need={need} storeSecret={storeSecret} />
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** An import's two lists, each shown when it has lines: what came in, and what did not with why. */
export function ImportedLists({
  imported,
  rejected,
}: {
  imported: readonly string[];
  rejected: readonly ImportProblem[];
}) {
  return (
    <>
      {imported.length > 0 && (
        <>
          <h5>Imported</h5>
          <ul aria-label="Imported">
            {imported.map((line, index) => (
              <li key={`${line}-${index}`}>{line}</li>
            ))}
          </ul>
        </>
      )}
      {rejected.length > 0 && (
        <>
          <h5>Not imported</h5>
          <ul aria-label="Not imported" className="rejected">
            {rejected.map((problem, index) => (
              <li key={`${problem.subject}-${index}`}>
                <strong>{problem.subject}</strong>: {problem.reasons.join('; ')}
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

/**
 * Reads the file the person chose and hands its text to `importText`; a file over `maxBytes` is refused by its size
 * before it is read into memory, and a file that cannot be read says why. The picker is emptied, so the same file can
 * be chosen again.
 */
export async function importChosenFile<R>(
  input: HTMLInputElement,
  file: File,
  maxBytes: number,
  tooLarge: (bytes: number) => string,
  importText: (text: string) => Promise<R>,
): Promise<R | { readonly ok: false; readonly message: string }> {
  try {
    return file.size > maxBytes ? { ok: false, message: tooLarge(file.size) } : await importText(await file.text());
  } catch (error) {
    return {
      ok: false,
      message: `The file could not be read: ${error instanceof Error ? error.message : String(error)}`,
    };
  } finally {
    input.value = '';
  }
}
