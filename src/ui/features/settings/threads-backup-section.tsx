import { useId, useState, type ChangeEvent } from 'react';
import { MAX_THREADS_FILE_BYTES } from '../../../domain/threads-backup-file';
import { threadsFileTooLarge } from '../../../domain/threads-backup-import';
import type { SettingsActions } from '../../../stores/settings-actions';
import type { ExportedBackup, ThreadsImportReport } from '../../../stores/threads-backup';
import { saveBlob } from '../../components/save-file';
import { useReportFocus } from '../../hooks/report-focus';
import { importChosenFile, ImportedLists } from './import-report';

/** Backup of all the profile's threads into one file, and import of such a file (or of one thread's export). */
export function ThreadsBackupSection({
  actions,
}: {
  actions: Pick<SettingsActions, 'exportThreads' | 'importThreads'>;
}) {
  const [report, setReport] = useState<ThreadsImportReport>();
  const [exported, setExported] = useState<{ readonly text: string; readonly isError: boolean }>();
  const [busy, setBusy] = useState<'export' | 'import'>();
  const ids = { heading: useId(), file: useId() };

  const exportNow = async () => {
    setExported(undefined);
    setBusy('export');
    try {
      const backup = await actions.exportThreads();
      for (const file of backup.files) saveBlob(file.name, new Blob([...file.parts], { type: file.type }));
      setExported({ text: exportedText(backup), isError: backup.tooLarge.length > 0 });
    } catch (error) {
      setExported({ text: error instanceof Error ? error.message : String(error), isError: true });
    } finally {
      setBusy(undefined);
    }
  };

  const importFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setBusy('import');
    setReport(undefined);
    setReport(await importChosenFile(input, file, MAX_THREADS_FILE_BYTES, threadsFileTooLarge, actions.importThreads));
    setBusy(undefined);
  };

  return (
    <section className="settings-card" aria-labelledby={ids.heading}>
      <h3 id={ids.heading}>Threads backup</h3>
      <p className="muted settings-help">
        Export saves every thread of this profile as one JSON file: all messages and their versions, attached files and
        thread settings. It holds no secrets and no approvals (&quot;Allow for this thread&quot; asks again). Import
        adds the threads that are not here yet.
      </p>
      <div className="inline-row">
        <button type="button" disabled={busy !== undefined} onClick={() => void exportNow()}>
          Export all threads
        </button>
        <label htmlFor={ids.file} className={`file-button${busy === 'import' ? ' is-busy' : ''}`}>
          Import threads
        </label>
        <input
          id={ids.file}
          className="file-input"
          type="file"
          accept="application/json,.json"
          disabled={busy !== undefined}
          onChange={(e) => void importFile(e)}
        />
      </div>
      {busy === 'export' && <p role="status">Exporting…</p>}
      {busy === 'import' && <p role="status">Importing…</p>}
      {exported && (
        <p className={exported.isError ? 'field-error' : 'muted'} role={exported.isError ? 'alert' : 'status'}>
          {exported.text}
        </p>
      )}
      {report && <ThreadsImportReportView report={report} />}
    </section>
  );
}

/** What an export saved, and what it could not. */
function exportedText({ files, threads, skipped, tooLarge }: ExportedBackup): string {
  const saved = `Exported ${threads} thread${threads === 1 ? '' : 's'}`;
  const split =
    files.length > 1
      ? ` in ${files.length} files (an import reads at most ${MAX_THREADS_FILE_BYTES / 1_000_000} MB a file: import each).`
      : '.';
  const unread = skipped > 0 ? ` ${skipped} stored records could not be read and were left out.` : '';
  const left =
    tooLarge.length > 0
      ? ` Left out, each larger than an import reads (${MAX_THREADS_FILE_BYTES / 1_000_000} MB): ${tooLarge.map((t) => `“${t}”`).join(', ')}. Export those one at a time from their Thread menu.`
      : '';
  return `${saved}${split}${unread}${left}`;
}

/** What a threads import did, laid out as the configuration import's report. */
function ThreadsImportReportView({ report }: { report: ThreadsImportReport }) {
  const box = useReportFocus<HTMLDivElement>(report);
  if (!report.ok)
    return (
      <div className="import-report" role="alert" aria-label="Threads import report" ref={box} tabIndex={-1}>
        <p className="field-error">{report.message}</p>
      </div>
    );
  const nothing = report.imported.length === 0 && report.rejected.length === 0 && !report.stopped;
  return (
    <div className="import-report" role="region" aria-label="Threads import report" ref={box} tabIndex={-1}>
      <h4>Import report</h4>
      {report.stopped && <p className="field-error">{report.stopped}</p>}
      {nothing && <p>The file holds no threads.</p>}
      <ImportedLists imported={report.imported} rejected={report.rejected} />
    </div>
  );
}
