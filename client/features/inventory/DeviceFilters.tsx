import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { DEVICE_TYPES, STATUS_FILTERS, findStatusFilter } from '../../../shared/constants/domain';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import { SearchInput } from '../../components/SearchInput';
import { formatDate } from '../../components/formatDate';
import type { DeviceFilterKey } from './useDeviceListQuery';

const L = INVENTORY_LABELS.devices;
const C = INVENTORY_LABELS.common;

export interface DeviceFiltersProps {
  idPrefix: string;
  filters: Record<DeviceFilterKey, string>;
  groups: readonly { id: number; name: string }[];
  onChange: (key: DeviceFilterKey, value: string) => void;
  /** Remounts the search input (after 'Limpiar filtros' empties it). */
  searchKey: number;
  filtersActive: boolean;
  onClear: () => void;
}

/**
 * The status select: 'Todos' and the reference §4 filter list, in its order. A status the
 * list does not offer (a dashboard's link: 'Sin conexión', 'Configurando'…) shows as one more
 * option while it is the filter, so the select says what is applied.
 */
export function StatusFilterSelect({ id, value, onChange }: { id: string; value: string; onChange: (value: string) => void }) {
  const extra = value && !STATUS_FILTERS.some((f) => f.value === value) ? findStatusFilter(value) : undefined;
  return (
    <Form.Select id={id} size="sm" value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{C.all}</option>
      {[...STATUS_FILTERS, ...(extra ? [extra] : [])].map((f) => (
        <option key={f.value} value={f.value}>
          {f.label}
        </option>
      ))}
    </Form.Select>
  );
}

/** The filters without a control of their own (set by the dashboards' links): each shows as a removable chip. */
const CHIP_FILTER_KEYS = ['inFlight', 'locked', 'agentVersion', 'agentVersionNot', 'releasedFrom'] as const satisfies readonly DeviceFilterKey[];
type ChipKey = (typeof CHIP_FILTER_KEYS)[number];

/** The text of an active chip filter. */
const chipText: Record<ChipKey, (value: string) => string> = {
  inFlight: () => L.chips.inFlight,
  locked: () => L.chips.locked,
  agentVersion: L.chips.agentVersion,
  agentVersionNot: L.chips.agentVersionNot,
  // A day alone is that calendar day (the API reads it from its UTC start).
  releasedFrom: (value) => L.chips.releasedFrom(formatDate(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00` : value)),
};

/** The active filters that have no control of their own (a dashboard's link sets them), each a button that removes it. */
function FilterChips({ active, filters, onChange }: Pick<DeviceFiltersProps, 'filters' | 'onChange'> & { active: readonly ChipKey[] }) {
  return (
    <ul className="list-unstyled d-flex flex-wrap gap-2 mb-0" aria-label={L.chips.list}>
      {active.map((key) => {
        const text = chipText[key](filters[key]);
        return (
          <li key={key}>
            <Button
              size="sm"
              variant="outline-secondary"
              className="rounded-pill"
              aria-label={L.chips.remove(text)}
              onClick={() => onChange(key, '')}
            >
              {text}
              <i className="bi bi-x-lg ms-2" aria-hidden="true" />
            </Button>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * Search, status, device type and group filters of the enrolled devices list (applied at once,
 * kept in the URL), and the chips of the filters a link set (command in flight, agent version).
 */
export function DeviceFilters({ idPrefix, filters, groups, onChange, searchKey, filtersActive, onClear }: DeviceFiltersProps) {
  const chips = CHIP_FILTER_KEYS.filter((key) => filters[key] !== '');
  return (
    <Row className="g-2 mb-3 align-items-end" role="search" aria-label={L.filters}>
      <Col md={12} lg>
        <Form.Label htmlFor={`${idPrefix}-search`} className="small mb-1">
          {L.search}
        </Form.Label>
        <SearchInput
          key={searchKey}
          id={`${idPrefix}-search`}
          ariaLabel={L.search}
          placeholder={L.searchPlaceholder}
          initialValue={filters.search}
          onSearch={(v) => onChange('search', v)}
          className="input-group-sm"
        />
      </Col>
      <Col sm={4} lg={3}>
        <Form.Label htmlFor={`${idPrefix}-status`} className="small mb-1">
          {INVENTORY_LABELS.devices.columns.status}
        </Form.Label>
        <StatusFilterSelect id={`${idPrefix}-status`} value={filters.status} onChange={(v) => onChange('status', v)} />
      </Col>
      {/* As wide as its options ('Todos', 'Móvil', 'TV'): the search keeps the room for its placeholder. */}
      <Col sm={4} lg="auto">
        <Form.Label htmlFor={`${idPrefix}-type`} className="small mb-1">
          {INVENTORY_LABELS.devices.columns.type}
        </Form.Label>
        <Form.Select id={`${idPrefix}-type`} size="sm" value={filters.deviceType} onChange={(e) => onChange('deviceType', e.target.value)}>
          <option value="">{C.all}</option>
          {DEVICE_TYPES.map((t) => (
            <option key={t.code} value={t.code}>
              {t.label}
            </option>
          ))}
        </Form.Select>
      </Col>
      <Col sm={4} lg={2}>
        <Form.Label htmlFor={`${idPrefix}-group`} className="small mb-1">
          {INVENTORY_LABELS.devices.columns.group}
        </Form.Label>
        <Form.Select id={`${idPrefix}-group`} size="sm" value={filters.groupId} onChange={(e) => onChange('groupId', e.target.value)}>
          <option value="">{C.all}</option>
          <option value="none">{C.noGroup}</option>
          {groups.map((g) => (
            <option key={g.id} value={g.id}>
              {g.name}
            </option>
          ))}
          {/* A group in the URL that the list does not (yet) hold keeps its value selectable. */}
          {filters.groupId && filters.groupId !== 'none' && !groups.some((g) => String(g.id) === filters.groupId) && (
            <option value={filters.groupId}>{`#${filters.groupId}`}</option>
          )}
        </Form.Select>
      </Col>
      <Col xs="auto">
        <Button size="sm" variant="outline-dark" className="text-nowrap" disabled={!filtersActive} onClick={onClear}>
          {L.clearFilters}
        </Button>
      </Col>
      {chips.length > 0 && (
        <Col xs={12}>
          <FilterChips active={chips} filters={filters} onChange={onChange} />
        </Col>
      )}
    </Row>
  );
}
