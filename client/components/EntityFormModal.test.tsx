/** @jest-environment jsdom */
import { act, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SPEC_TEXT } from '../../shared/messages';
import { EntityFormModal, useEntityFormModal, type Editing, type EntityFormModalProps, type MutationAnswer } from './EntityFormModal';
import type { SaveOutcome } from './serverFieldError';
import { APP_MODAL } from './AppModal';

// The dialog's own chunk, loaded as a page's idle prefetch loads it.
beforeAll(() => APP_MODAL.load());

interface Group {
  id: number;
  name: string;
}
const NORTE: Group = { id: 1, name: 'Norte' };
const SUR: Group = { id: 2, name: 'Sur' };
const FORM_ID = 'group-form';

/** A form holding its own state (what a fresh form per entity is about): the name, prefilled. */
function NameForm({ group, onSubmit }: { group?: Group; onSubmit: (name: string) => void }) {
  return (
    <form
      id={FORM_ID}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(new FormData(e.currentTarget).get('name') as string);
      }}
    >
      <label htmlFor="group-name">Nombre</label>
      <input id="group-name" name="name" defaultValue={group?.name ?? ''} />
    </form>
  );
}

function setup(editing: Editing<Group>, props: Partial<EntityFormModalProps<Group>> = {}) {
  const onClose = jest.fn();
  const onSubmit = jest.fn();
  const user = userEvent.setup();
  const tree = (next: Editing<Group>, more: Partial<EntityFormModalProps<Group>> = {}) => (
    <EntityFormModal<Group>
      editing={next}
      createTitle="Nuevo grupo"
      editTitle={(g) => `Editar grupo: ${g.name}`}
      formId={FORM_ID}
      loading={false}
      onClose={onClose}
      {...props}
      {...more}
    >
      {(group) => <NameForm group={group} onSubmit={onSubmit} />}
    </EntityFormModal>
  );
  const view = render(tree(editing));
  return {
    onClose,
    onSubmit,
    user,
    rerender: (next: Editing<Group>, more?: Partial<EntityFormModalProps<Group>>) => view.rerender(tree(next, more)),
  };
}

const nameInput = () => screen.getByRole('textbox', { name: 'Nombre' }) as HTMLInputElement;

test("'new': the create title and an empty form, which 'Guardar' submits", async () => {
  const { user, onSubmit, onClose } = setup('new');
  const dialog = await screen.findByRole('dialog', { name: 'Nuevo grupo' });
  expect(nameInput().value).toBe('');
  await user.type(nameInput(), 'Centro');
  const save = within(dialog).getByRole('button', { name: SPEC_TEXT.save });
  expect(save.getAttribute('form')).toBe(FORM_ID);
  await user.click(save);
  expect(onSubmit).toHaveBeenCalledWith('Centro');
  await user.click(within(dialog).getByRole('button', { name: SPEC_TEXT.cancel }));
  expect(onClose).toHaveBeenCalledTimes(1);
});

test('an entity: the edit title (a text or made of the entity) and its form', async () => {
  const { rerender } = setup(NORTE);
  await screen.findByRole('dialog', { name: 'Editar grupo: Norte' });
  expect(nameInput().value).toBe('Norte');
  rerender(NORTE, { editTitle: 'Renombrar grupo' });
  await screen.findByRole('dialog', { name: 'Renombrar grupo' });
});

test('null: closed', () => {
  setup(null);
  expect(screen.queryByRole('dialog')).toBeNull();
});

test('while saving, Guardar is disabled and shows "Cargando..."', async () => {
  setup(NORTE, { loading: true });
  const dialog = await screen.findByRole('dialog', { name: 'Editar grupo: Norte' });
  expect((within(dialog).getByRole('button', { name: SPEC_TEXT.loading }) as HTMLButtonElement).disabled).toBe(true);
});

test('a fresh form per entity: what was typed for one is not shown for another', async () => {
  const { user, rerender } = setup(NORTE);
  await screen.findByRole('dialog', { name: 'Editar grupo: Norte' });
  await user.clear(nameInput());
  await user.type(nameInput(), 'Norte 2');
  rerender(SUR);
  await screen.findByRole('dialog', { name: 'Editar grupo: Sur' });
  expect(nameInput().value).toBe('Sur');
});

test('closing keeps the title and the form until the dialog is gone; opened again, the form is fresh', async () => {
  const { user, rerender } = setup('new');
  await screen.findByRole('dialog', { name: 'Nuevo grupo' });
  await user.type(nameInput(), 'Centro');
  rerender(NORTE);
  await screen.findByRole('dialog', { name: 'Editar grupo: Norte' });
  rerender(null);
  // Fading out: still the last entity's title and form, not the create title.
  const closing = screen.getByRole('dialog', { hidden: true });
  expect(closing.querySelector('.modal-title')?.textContent).toBe('Editar grupo: Norte');
  expect((closing.querySelector('#group-name') as HTMLInputElement).value).toBe('Norte');
  await waitFor(() => expect(screen.queryByRole('dialog', { hidden: true })).toBeNull());
  rerender('new');
  await screen.findByRole('dialog', { name: 'Nuevo grupo' });
  expect(nameInput().value).toBe('');
});

describe('useEntityFormModal: the dialog state and its saves', () => {
  const REFUSED = { error: { status: 409, data: { message: 'Ya existe un grupo con ese nombre', code: 'GROUP_NAME_TAKEN', field: 'name' } } };
  function setupSaves() {
    const saves = {
      create: jest.fn(async (name: string): Promise<MutationAnswer<Group>> => (name === 'Norte' ? REFUSED : { data: { id: 3, name } })),
      update: jest.fn(async (group: Group, name: string): Promise<MutationAnswer<Group>> => ({ data: { ...group, name } })),
      onCreated: jest.fn(),
      onUpdated: jest.fn(),
    };
    const hook = renderHook(({ loading }) => useEntityFormModal<Group, string>({ ...saves, loading }), { initialProps: { loading: false } });
    return { saves, hook };
  }

  test("openNew: a creation; it closes the dialog when it worked, answers the API's error when it did not", async () => {
    const { saves, hook } = setupSaves();
    expect(hook.result.current.modal.editing).toBeNull();
    act(() => hook.result.current.openNew());
    expect(hook.result.current.modal.editing).toBe('new');

    let outcome: SaveOutcome;
    await act(async () => {
      outcome = await hook.result.current.onSubmit('Norte');
    });
    expect(outcome).toEqual({ error: { message: 'Ya existe un grupo con ese nombre', field: 'name' } });
    expect(saves.onCreated).not.toHaveBeenCalled();
    expect(hook.result.current.editing).toBe('new');

    await act(async () => {
      outcome = await hook.result.current.onSubmit('Centro');
    });
    expect(outcome).toBeUndefined();
    expect(saves.onCreated).toHaveBeenCalledWith({ id: 3, name: 'Centro' });
    expect(saves.update).not.toHaveBeenCalled();
    expect(hook.result.current.editing).toBeNull();
  });

  test('openEdit: the entity is saved over; close and the loading flag reach the dialog', async () => {
    const { saves, hook } = setupSaves();
    act(() => hook.result.current.openEdit(NORTE));
    expect(hook.result.current.modal.editing).toBe(NORTE);
    await act(async () => {
      await hook.result.current.onSubmit('Norte 2');
    });
    expect(saves.update).toHaveBeenCalledWith(NORTE, 'Norte 2');
    expect(saves.onUpdated).toHaveBeenCalledWith({ id: 1, name: 'Norte 2' }, NORTE);
    expect(hook.result.current.editing).toBeNull();

    act(() => hook.result.current.openEdit(SUR));
    hook.rerender({ loading: true });
    expect(hook.result.current.modal.loading).toBe(true);
    act(() => hook.result.current.modal.onClose());
    expect(hook.result.current.editing).toBeNull();
  });
});
