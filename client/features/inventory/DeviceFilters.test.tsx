/** @jest-environment jsdom */
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STATUS_FILTERS } from '../../../shared/constants/domain';
import { DeviceFilters, StatusFilterSelect } from './DeviceFilters';

const optionsOf = (select: HTMLElement) => [...select.querySelectorAll('option')].map((o) => o.textContent);

test('the status filter offers "Todos" and exactly the reference §4 filter list, in order', () => {
  render(<StatusFilterSelect id="s" value="" onChange={() => undefined} />);
  const select = screen.getByRole('combobox');
  expect(optionsOf(select)).toEqual(['Todos', ...STATUS_FILTERS.map((f) => f.label)]);
  // The reference §4 list, spelled out: a regression in the shared list fails here too.
  expect(optionsOf(select)).toEqual([
    'Todos',
    'Enrolado',
    'Enrolando',
    'Bloqueado',
    'Bloqueando',
    'Desbloqueado',
    'Desbloqueando',
    'Activo',
    'Desbloqueado offline',
    'Liberando',
    'Activo temporal',
    'Liberado',
    'Fallido',
    'Suspendido',
    'Desbloqueando temporal',
    'Bloqueado Por Crédito',
    'Bloqueado Por No Conexión',
    'Bloqueado Por Cambio SIM',
    'Bloqueado Sin Kiosko',
  ]);
  expect([...select.querySelectorAll('option')].map((o) => o.getAttribute('value'))).toEqual(['', ...STATUS_FILTERS.map((f) => f.value)]);
});

test("a status outside the list (a dashboard's link) shows as one more option while it is the filter", () => {
  const { rerender } = render(<StatusFilterSelect id="s" value="20" onChange={() => undefined} />);
  const select = screen.getByRole<HTMLSelectElement>('combobox');
  expect(optionsOf(select)).toEqual(['Todos', ...STATUS_FILTERS.map((f) => f.label), 'Sin conexión']);
  expect(select.value).toBe('20');
  rerender(<StatusFilterSelect id="s" value="3" onChange={() => undefined} />);
  expect(optionsOf(select)).toEqual(['Todos', ...STATUS_FILTERS.map((f) => f.label)]);
});

const NO_FILTERS = {
  status: '',
  deviceType: '',
  groupId: '',
  search: '',
  inFlight: '',
  locked: '',
  agentVersion: '',
  agentVersionNot: '',
  releasedFrom: '',
};

function setup(over: Partial<typeof NO_FILTERS> = {}, filtersActive = false) {
  const filters = { ...NO_FILTERS, ...over };
  const onChange = jest.fn();
  const onClear = jest.fn();
  render(
    <DeviceFilters
      idPrefix="f"
      filters={filters}
      groups={[{ id: 4, name: 'Norte' }]}
      onChange={onChange}
      searchKey={0}
      filtersActive={filtersActive}
      onClear={onClear}
    />,
  );
  return { onChange, onClear, user: userEvent.setup() };
}

test('each filter is labelled; choosing a value reports it', async () => {
  const { onChange, user } = setup();
  await user.selectOptions(screen.getByRole('combobox', { name: 'Estado' }), 'Bloqueado Por Crédito');
  expect(onChange).toHaveBeenLastCalledWith('status', '3:PorCredito');
  const type = screen.getByRole('combobox', { name: 'Tipo' });
  expect(optionsOf(type)).toEqual(['Todos', 'Móvil', 'TV']);
  await user.selectOptions(type, 'TV');
  expect(onChange).toHaveBeenLastCalledWith('deviceType', '2');
  const group = screen.getByRole('combobox', { name: 'Grupo' });
  expect(optionsOf(group)).toEqual(['Todos', 'Sin grupo', 'Norte']);
  await user.selectOptions(group, 'Sin grupo');
  expect(onChange).toHaveBeenLastCalledWith('groupId', 'none');
  expect(screen.getByRole('searchbox', { name: 'Buscar dispositivos' })).toBeTruthy();
});

test('"Limpiar filtros" is enabled only while a filter is active', async () => {
  setup();
  expect((screen.getByRole('button', { name: 'Limpiar filtros' }) as HTMLButtonElement).disabled).toBe(true);
});

test('with filters active, "Limpiar filtros" clears them', async () => {
  const { onClear, user } = setup({ status: '9' }, true);
  await user.click(screen.getByRole('button', { name: 'Limpiar filtros' }));
  expect(onClear).toHaveBeenCalledTimes(1);
  expect((screen.getByRole('combobox', { name: 'Estado' }) as HTMLSelectElement).value).toBe('9');
});

test('without the filters a link sets, no chip is shown', () => {
  setup({ status: '9' }, true);
  expect(screen.queryByRole('list', { name: 'Filtros aplicados' })).toBeNull();
});

test('each filter a link sets shows as a chip; its button (keyboard too) removes that filter only', async () => {
  const { onChange, user } = setup({ inFlight: 'true', locked: 'true', agentVersion: '3.4.1', agentVersionNot: '3.3.0', deviceType: '1' }, true);
  const chips = screen.getByRole('list', { name: 'Filtros aplicados' });
  expect(
    within(chips)
      .getAllByRole('listitem')
      .map((li) => li.textContent),
  ).toEqual(['Con comando en curso', 'Bloqueados o bloqueándose', 'Versión del agente: 3.4.1', 'Versión del agente distinta de 3.3.0']);
  await user.click(within(chips).getByRole('button', { name: 'Quitar filtro Con comando en curso' }));
  expect(onChange).toHaveBeenLastCalledWith('inFlight', '');
  within(chips).getByRole('button', { name: 'Quitar filtro Versión del agente: 3.4.1' }).focus();
  await user.keyboard('{Enter}');
  expect(onChange).toHaveBeenLastCalledWith('agentVersion', '');
  within(chips).getByRole('button', { name: 'Quitar filtro Versión del agente distinta de 3.3.0' }).focus();
  await user.keyboard(' ');
  expect(onChange).toHaveBeenLastCalledWith('agentVersionNot', '');
  await user.click(within(chips).getByRole('button', { name: 'Quitar filtro Bloqueados o bloqueándose' }));
  expect(onChange).toHaveBeenLastCalledWith('locked', '');
  expect(onChange).toHaveBeenCalledTimes(4);
});

test("'Liberados este mes' shows its date as a chip (an instant in the browser's zone, or a day as written)", async () => {
  const { onChange, user } = setup({ status: '9', releasedFrom: '2026-11-01T06:00:00.000Z' }, true);
  const chip = within(screen.getByRole('list', { name: 'Filtros aplicados' })).getByRole('button');
  expect(chip.textContent).toBe(
    `Liberados desde el ${new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium' }).format(new Date('2026-11-01T06:00:00.000Z'))}`,
  );
  await user.click(chip);
  expect(onChange).toHaveBeenLastCalledWith('releasedFrom', '');
  cleanup();
  setup({ releasedFrom: '2026-11-01' }, true);
  expect(within(screen.getByRole('list', { name: 'Filtros aplicados' })).getByRole('button').textContent).toBe('Liberados desde el 1 nov 2026');
});
