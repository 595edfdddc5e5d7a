/**
 * Spanish texts of the shared client components that docs/reference.md does not spell out,
 * plus the builders of texts made from the reference's own words.
 */
import { SPEC_TEXT } from '../messages';

const characters = (n: number) => (n === 1 ? 'carácter' : 'caracteres');

export const LABELS = {
  search: 'Buscar',
  close: 'Cerrar',
  notifications: 'Notificaciones',
  clipboardUnavailable: 'No se pudo copiar al portapapeles',
  /** Field error when the text is shorter than `min` characters. */
  textTooShort: (min: number) => `Debe tener al menos ${min} ${characters(min)}`,
  /** Field error when the text is longer than `max` characters. */
  textTooLong: (max: number) => `Debe tener como máximo ${max} ${characters(max)}`,
  /** Accessible name of a copy button, e.g. 'Copiar IMEI'. */
  copyLabel: (label: string) => `Copiar ${label}`,
  /** '<label> <text> copiado' (reference §5), e.g. 'IMEI 356938035643809 copiado'. */
  copied: (label: string, text: string) => `${label} ${text} ${SPEC_TEXT.copied}`,
  /** The counter under a text field: '12/500'. */
  counter: (length: number, max: number) => `${length.toLocaleString('es-MX')}/${max.toLocaleString('es-MX')}`,
  /** What a date field shows empty, and how a date is typed (es-MX, whatever the browser's language). */
  datePlaceholder: 'dd/mm/aaaa',
  dateTimePlaceholder: 'dd/mm/aaaa hh:mm',
  /** A date field's text that is not a date. */
  dateInvalid: 'Escriba una fecha válida como dd/mm/aaaa',
} as const;

/** Texts of the one data table (loading, error, sorting, selection, row actions). */
export const DATA_TABLE_LABELS = {
  loading: 'Cargando...',
  loadError: 'No se pudo cargar la información',
  retry: 'Reintentar',
  noResults: 'No hay resultados',
  actions: 'Acciones',
  sortBy: (column: string) => `Ordenar por ${column}`,
  perPage: 'Resultados por página',
  pagination: 'Paginación',
  pageOf: (page: number, pages: number, total: number) => `Página ${page} de ${pages} (${total} registros)`,
} as const;

/** The dialog that stops a navigation away from a form with unsaved changes. */
export const UNSAVED_CHANGES_LABELS = {
  title: 'Cambios sin guardar',
  question: '¿Salir sin guardar los cambios?',
  leave: 'Salir sin guardar',
  stay: 'Seguir editando',
} as const;
