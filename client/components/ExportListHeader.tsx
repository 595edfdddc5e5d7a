import type { ReactNode } from 'react';
import { LoadingButton } from './LoadingButton';
import { toastSuccess } from './toast';

export interface ExportListHeaderProps {
  title: string;
  /** The button's text (*Exportar CSV*). */
  exportLabel: string;
  /** The toast once the file is saved. */
  exportedMessage: string;
  /** True while the export runs: the button shows 'Cargando...'. */
  exporting: boolean;
  /** Runs the export of the filtered set; an answer with `data` is a saved file (errors toast on their own). */
  onExport: () => Promise<{ data?: unknown } | { error: unknown }>;
  /** The page's other actions, shown before the export (Importar CSV, say). */
  children?: ReactNode;
}

/** A list page's heading and its CSV export of what the filters select, the same on every list. */
export function ExportListHeader({ title, exportLabel, exportedMessage, exporting, onExport, children }: ExportListHeaderProps) {
  const run = async () => {
    const res = await onExport();
    if ('data' in res) toastSuccess(exportedMessage);
  };
  return (
    <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
      <h1 className="h3 mb-0">{title}</h1>
      <div className="d-flex flex-wrap gap-2">
        {children}
        <LoadingButton variant="primary" loading={exporting} onClick={() => void run()}>
          <i className="bi bi-download me-2" aria-hidden="true" />
          {exportLabel}
        </LoadingButton>
      </div>
    </div>
  );
}
