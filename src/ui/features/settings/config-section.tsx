import { useId, useState, type ChangeEvent } from 'react';
import { MAX_CONFIG_FILE_BYTES } from '../../../domain/config-file';
import { tooLarge } from '../../../domain/config-import';
import type { ImportReport } from '../../../stores/config-transfer';
import type { SettingsActions } from '../../../stores/settings-actions';
import { importChosenFile, ImportReportView } from './import-report';
import { saveFile } from '../../components/save-file';

/** Export of the profile's configuration without secrets, and import of such a file with a report. */
export function ConfigSection({
  actions,
  onImported,
}: {
  actions: Pick<SettingsActions, 'exportConfig' | 'importConfig' | 'storeServerSecret'>;
  onImported: () => void;
}) {
  const [report, setReport] = useState<ImportReport>();
  const [exportError, setExportError] = useState<string>();
  const [isBusy, setBusy] = useState(false);
  const ids = { heading: useId(), file: useId() };

  const exportNow = async () => {
    setExportError(undefined);
    try {
      saveFile(await actions.exportConfig());
    } catch (error) {
      setExportError(error instanceof Error ? error.message : String(error));
    }
  };

  const importFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setBusy(true);
    setReport(undefined);
    const report = await importChosenFile(input, file, MAX_CONFIG_FILE_BYTES, tooLarge, actions.importConfig);
    setReport(report);
    setBusy(false);
    if (report.ok) onImported();
  };

  return (
    <section className="settings-card" aria-labelledby={ids.heading}>
      <h3 id={ids.heading}>Configuration file</h3>
      <p className="muted settings-help">
        Export saves this profile&apos;s preferences and servers as a JSON file. It holds no secrets: no key, tokens,
        header values or client secrets; after an import, servers that need one ask for it.
      </p>
      <div className="inline-row">
        <button type="button" onClick={() => void exportNow()}>
          Export configuration
        </button>
        <label htmlFor={ids.file} className={`file-button${isBusy ? ' is-busy' : ''}`}>
          Import configuration
        </label>
        <input
          id={ids.file}
          className="file-input"
          type="file"
          accept="application/json,.json"
          disabled={isBusy}
          onChange={(e) => void importFile(e)}
        />
      </div>
      {exportError && <p className="field-error">{exportError}</p>}
      {isBusy && <p role="status">Importing…</p>}
      {report && <ImportReportView report={report} storeSecret={actions.storeServerSecret} />}
    </section>
  );
}
