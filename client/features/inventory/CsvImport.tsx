import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router-dom';
import type { ImportResult } from '../../../shared/contracts/deviceImport';
import type { Group } from '../../../shared/contracts/groups';
import { CsvImportFlow } from '../../components/CsvImportFlow';
import { toastSuccess } from '../../components/toast';
import { CsvImportPreview, CsvInvalidRows } from './CsvImportPreview';
import { useDownloadImportTemplateMutation, useImportDevicesMutation } from './inventoryApi';
import { ADD_DEVICE_LABELS } from '../../../shared/constants/addDeviceLabels';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS } from '../../../shared/constants/limits';

const L = ADD_DEVICE_LABELS;
const MAX_MB = IMPORT_MAX_BYTES / (1024 * 1024);

export interface CsvImportProps {
  groups: readonly Pick<Group, 'id' | 'name'>[];
  /** Where the registered devices are listed, when the profile may open it. */
  preEnrolledPath?: string;
}

/**
 * Registration from a CSV file on the one import flow (client/components/CsvImportFlow.tsx):
 * template, file, the server's dry run (mode preview), then — only on the administrator's
 * explicit choice — the commit of the valid rows (mode commit) and its result.
 */
export function CsvImport({ groups, preEnrolledPath }: CsvImportProps) {
  const [downloadTemplate, templateState] = useDownloadImportTemplateMutation();
  const [importDevices] = useImportDevicesMutation();

  return (
    <CsvImportFlow<ImportResult>
      intro={<p>{L.csvIntro(IMPORT_MAX_ROWS.toLocaleString('es-MX'), MAX_MB)}</p>}
      onDownloadTemplate={() => void downloadTemplate()}
      templateLoading={templateState.isLoading}
      send={async (file, mode) => {
        const res = await importDevices({ file, mode });
        return 'data' in res ? res.data : undefined;
      }}
      canCommit={(preview) => preview.valid > 0}
      importingText={(preview) => L.importing(preview.valid)}
      onCommitted={(result) => toastSuccess(L.imported(result.imported))}
      renderPreview={(preview, { importing, onImport, onCancel }) => (
        <CsvImportPreview preview={preview} groups={groups} importing={importing} onImport={onImport} onCancel={onCancel} />
      )}
      renderResult={(result) => (
        <Alert variant="success" data-testid="csv-result">
          <p className="mb-0">{L.imported(result.imported)}</p>
          {preEnrolledPath && (
            <Link to={preEnrolledPath} className="alert-link">
              {L.viewPreEnrolled}
            </Link>
          )}
        </Alert>
      )}
      renderResultDetail={(result) =>
        result.invalid.length > 0 && <CsvInvalidRows rows={result.invalid} caption={L.notImported(result.invalid.length)} />
      }
    />
  );
}
