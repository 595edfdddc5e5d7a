import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { deviceTypeLabel } from '../../../shared/constants/domain';
import type { ImportResult, ImportRowError } from '../../../shared/contracts/deviceImport';
import type { DeviceBody } from '../../../shared/contracts/devices';
import type { Group } from '../../../shared/contracts/groups';
import { displayValue } from '../../components/EmptyValue';
import { CsvCounts, CsvIgnoredColumns, CsvRowErrors } from '../../components/CsvImportFlow';
import { LoadingButton } from '../../components/LoadingButton';
import { ADD_DEVICE_LABELS } from '../../../shared/constants/addDeviceLabels';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';

const L = ADD_DEVICE_LABELS;
const F = INVENTORY_LABELS.deviceForm;

const count = (n: number) => n.toLocaleString('es-MX');

/** The invalid rows of a CSV file: line, IMEI and every error of the row by field. */
export function CsvInvalidRows({ rows, caption }: { rows: readonly ImportRowError[]; caption: string }) {
  return <CsvRowErrors rows={rows} caption={caption} keyLabel={F.imei} keyOf={(r) => r.imei} />;
}

/** The first valid rows as they will be registered. */
function SampleRows({ rows, groups }: { rows: readonly DeviceBody[]; groups: readonly Pick<Group, 'id' | 'name'>[] }) {
  const groupName = (id: number | null) => (id === null ? null : (groups.find((g) => g.id === id)?.name ?? String(id)));
  return (
    <Table size="sm" bordered responsive className="mb-3" data-testid="csv-sample-rows">
      <caption className="caption-top fw-semibold text-body">{L.sampleTitle}</caption>
      <thead>
        <tr>
          <th scope="col">{F.imei}</th>
          <th scope="col">{F.imei2}</th>
          <th scope="col">{F.serial}</th>
          <th scope="col">{F.deviceType}</th>
          <th scope="col">{F.brand}</th>
          <th scope="col">{F.model}</th>
          <th scope="col">{F.group}</th>
          <th scope="col">{F.customerName}</th>
          <th scope="col">{F.creditReference}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((d) => (
          <tr key={d.imei}>
            <td className="text-nowrap">{d.imei}</td>
            <td className="text-nowrap">{displayValue(d.imei2)}</td>
            <td>{displayValue(d.serial)}</td>
            <td>{deviceTypeLabel(d.deviceType)}</td>
            <td>{displayValue(d.brand)}</td>
            <td>{displayValue(d.model)}</td>
            <td>{displayValue(groupName(d.groupId))}</td>
            <td>{displayValue(d.customerName)}</td>
            <td>{displayValue(d.creditReference)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

export interface CsvImportPreviewProps {
  preview: ImportResult;
  groups: readonly Pick<Group, 'id' | 'name'>[];
  /** The commit is running. */
  importing: boolean;
  onImport: () => void;
  onCancel: () => void;
}

/**
 * The dry run of a CSV file: how many rows, how many valid, the invalid ones with their errors
 * and a sample of the valid ones; nothing is registered until 'Importar N filas válidas'.
 */
export function CsvImportPreview({ preview, groups, importing, onImport, onCancel }: CsvImportPreviewProps) {
  const invalid = preview.rows - preview.valid;
  return (
    <div data-testid="csv-preview">
      <CsvCounts rows={preview.rows} encoding={preview.encoding}>
        <div>
          <dt className="small fw-normal">{L.valid}</dt>
          <dd className="fs-5 mb-0 text-success-emphasis">{count(preview.valid)}</dd>
        </div>
        <div>
          <dt className="small fw-normal">{L.invalid}</dt>
          <dd className={`fs-5 mb-0${invalid > 0 ? ' text-danger-emphasis' : ''}`}>{count(invalid)}</dd>
        </div>
      </CsvCounts>
      <CsvIgnoredColumns columns={preview.ignoredColumns} />
      {preview.invalid.length > 0 && <CsvInvalidRows rows={preview.invalid} caption={L.invalidTitle} />}
      {preview.sample.length > 0 && <SampleRows rows={preview.sample} groups={groups} />}
      {preview.valid === 0 ? <Alert variant="warning">{L.noValidRows}</Alert> : <p className="small mb-2">{L.importNote}</p>}
      <div className="d-flex flex-wrap gap-2">
        <LoadingButton variant="primary" loading={importing} disabled={preview.valid === 0} onClick={onImport}>
          {L.importValid(preview.valid)}
        </LoadingButton>
        <Button variant="secondary" onClick={onCancel} disabled={importing}>
          {L.cancel}
        </Button>
      </div>
    </div>
  );
}
