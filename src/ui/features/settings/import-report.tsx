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
      {report.imported.length > 0 && (
        <>
          <h5>Imported</h5>
          <ul aria-label="Imported">
            {report.imported.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      )}
      {report.rejected.length > 0 && (
        <>
          <h5>Not imported</h5>
          <ul aria-label="Not imported" className="rejected">
            {report.rejected.map((problem, index) => (
              <li key={`${problem.subject}-${index}`}>
                <strong>{problem.subject}</strong>: {problem.reasons.join('; ')}
              </li>
            ))}
          </ul>
        </>
      )}
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
