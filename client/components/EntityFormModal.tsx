import { Fragment, Suspense, useState, type ReactNode } from 'react';
import type { ModalProps } from 'react-bootstrap/Modal';
import { formErrorOf } from '../api/apiErrors';
import type { ApiError } from '../api/axiosBaseQuery';
import { AppModal } from './AppModal';
import { PageSpinner } from './PageSpinner';
import type { SaveOutcome } from './serverFieldError';
import { useShownWhileClosing } from './useShownWhileClosing';

/** A create/edit dialog's state: 'new' to create one, the entity to edit it, null when closed. */
export type Editing<T> = T | 'new' | null;

export interface EntityFormModalProps<T extends { id: number | string }> {
  editing: Editing<T>;
  /** The title while creating. */
  createTitle?: ReactNode;
  /** The title while editing, or the title of the entity edited. */
  editTitle?: ReactNode | ((entity: T) => ReactNode);
  /** The id of the form the 'Guardar' button submits. */
  formId: string;
  /** While the save runs: 'Guardar' is disabled and shows 'Cargando...'. */
  loading: boolean;
  size?: ModalProps['size'];
  onClose: () => void;
  /** The form (with the id `formId`): the entity edited, undefined while creating. A fresh form per entity. */
  children: (entity: T | undefined) => ReactNode;
}

/** The dialog's state as a page holds it: what is edited, whether a save runs, how to close it. */
export type EntityFormModalState<T extends { id: number | string }> = Pick<EntityFormModalProps<T>, 'editing' | 'loading' | 'onClose'>;

/** What a page hands to the create/edit dialog of one kind of entity (e.g. GroupFormModal). */
export interface EntityFormModalOf<T extends { id: number | string }, B> extends EntityFormModalState<T> {
  /** Saves the form's body: nothing when it worked, else the API's error (shown under its field). */
  onSubmit: (body: B) => Promise<SaveOutcome>;
}

/** What an RTK Query mutation answers. */
export type MutationAnswer<R> = { data: R; error?: undefined } | { data?: undefined; error: unknown };

export interface EntitySaves<T, B, C, U> {
  /** Creates an entity from the form's body. */
  create: (body: B) => Promise<MutationAnswer<C>>;
  /** Saves the form's body over the entity edited (a page that only creates has none). */
  update?: (entity: T, body: B) => Promise<MutationAnswer<U>>;
  /** After a creation, as the dialog closes: the toast, and whatever else the page shows. */
  onCreated: (created: C) => void;
  onUpdated?: (updated: U, entity: T) => void;
  /** While a save runs. */
  loading: boolean;
}

/**
 * The state of a page's create/edit dialog and its saves: `openNew()` and `openEdit(entity)` open it,
 * `modal` and `onSubmit` go to the dialog and its form. A save that works closes the dialog
 * (after `onCreated` / `onUpdated`); a failed one answers the API's error, which the form shows
 * under the field it names (the API layer has toasted it).
 */
export function useEntityFormModal<T extends { id: number | string }, B, C = T, U = C>(saves: EntitySaves<T, B, C, U>) {
  const [editing, setEditing] = useState<Editing<T>>(null);
  const close = () => setEditing(null);
  const failed = (error: unknown): SaveOutcome => ({ error: formErrorOf(error as ApiError) });
  const onSubmit = async (body: B): Promise<SaveOutcome> => {
    if (editing === null) return undefined;
    if (editing === 'new') {
      const res = await saves.create(body);
      if ('error' in res) return failed(res.error);
      saves.onCreated(res.data);
    } else {
      if (!saves.update) return undefined;
      const res = await saves.update(editing, body);
      if ('error' in res) return failed(res.error);
      saves.onUpdated?.(res.data, editing);
    }
    close();
    return undefined;
  };
  const modal: EntityFormModalState<T> = { editing, loading: saves.loading, onClose: close };
  return { editing, modal, onSubmit, openNew: () => setEditing('new'), openEdit: (entity: T) => setEditing(entity), close };
}

/**
 * The dialog that creates or edits one entity (AppModal with 'Guardar' / 'Cancelar'): open while
 * `editing` is set, titled for creating or editing, its 'Guardar' submitting the form of the body.
 * While it fades out it keeps the last title and form.
 */
export function EntityFormModal<T extends { id: number | string }>({
  editing,
  createTitle,
  editTitle,
  formId,
  loading,
  size,
  onClose,
  children,
}: EntityFormModalProps<T>) {
  const shown = useShownWhileClosing(editing);
  const entity = shown === 'new' || shown === null ? undefined : shown;
  const title = entity === undefined ? createTitle : typeof editTitle === 'function' ? editTitle(entity) : editTitle;
  return (
    <AppModal show={editing !== null} title={title} formId={formId} loading={loading} size={size} onClose={onClose}>
      {/* A form in a chunk of its own (useIdlePrefetch) that is not there yet: a spinner until it is. */}
      <Suspense fallback={<PageSpinner />}>
        {shown !== null && <Fragment key={entity === undefined ? 'new' : `id-${entity.id}`}>{children(entity)}</Fragment>}
      </Suspense>
    </AppModal>
  );
}
