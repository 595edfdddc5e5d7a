/**
 * Spanish texts of the business-apps page (/agent-settings/business-app) and of the lock-app
 * pages (/agent-settings/app-lock, /agent-settings-tv/app-lock-tv). The forms' field labels are
 * FIELD_LABELS.businessApps and FIELD_LABELS.lockApp (the API's messages name fields by them);
 * the API's own texts are AGENT_SETTINGS_MESSAGES (shared/messages.ts).
 */
import { DEVICE_ACTION, DEVICE_ACTIONS } from './deviceActions';
import { DEVICE_TYPE, SELECTABLE_APP_TYPES } from './domain';
import { count } from './spanishNumbers';

const actionName = (code: number) => DEVICE_ACTIONS.find((a) => a.code === code)!.label;

/** The label of an app type code: the selectable ones by name, any other as 'Tipo N'. */
export function appTypeLabel(code: number): string {
  return SELECTABLE_APP_TYPES.find((t) => t.code === code)?.label ?? `Tipo ${code}`;
}

export const AGENT_APPS_LABELS = {
  common: {
    edit: 'Editar',
    delete: 'Eliminar',
    selectAppType: 'Seleccione el tipo de app',
    updatedBy: (email: string) => `por ${email}`,
    /** The end of the notes on the device actions: 'desde {link}.' */
    from: 'desde',
    devicesPage: 'la página de dispositivos',
  },

  businessApps: {
    create: 'Nueva app',
    createTitle: 'Nueva app de negocio',
    editTitle: 'Editar app de negocio',
    deleteTitle: 'Eliminar app de negocio',
    editOf: (name: string) => `Editar la app ${name}`,
    deleteOf: (name: string) => `Eliminar la app ${name}`,
    caption: 'Apps de negocio',
    loading: 'Cargando apps de negocio',
    empty: 'No hay apps de negocio',
    emptyHelp: 'Registre las apps que el agente instala en los smartphones.',
    columns: {
      name: 'Nombre',
      packageName: 'Paquete',
      version: 'Versión',
      appType: 'Tipo de app',
      groups: 'Grupos',
      updated: 'Última actualización',
    },
    allSmartphones: 'Todos los smartphones',
    allSmartphonesHelp: 'Sin grupos seleccionados, la app se instala en todos los smartphones.',
    groupsLegend: 'Grupos que reciben la app',
    groupsLoading: 'Cargando grupos...',
    groupsError: 'No se pudieron cargar los grupos',
    groupsEmpty: 'No hay grupos de dispositivos: la app se instalará en todos los smartphones.',
    groupsSelected: (n: number) => (n === 1 ? '1 grupo seleccionado' : `${count(n)} grupos seleccionados`),
    filterGroups: 'Filtrar grupos',
    noGroupMatches: 'Ningún grupo coincide con el filtro',
    packagePlaceholder: 'com.empresa.app',
    versionCodeHelp: 'El versionCode del APK (un número entero positivo).',
    urlPlaceholder: 'https://',
    sha256Help: 'La suma SHA-256 del APK, como la imprime sha256sum (64 caracteres hexadecimales).',
    confirmDelete: (name: string, packageName: string) =>
      `¿Eliminar la app ${name} (${packageName})? Los agentes dejarán de recibirla; no se desinstala de los dispositivos que ya la tienen.`,
    createdDone: (name: string) => `App ${name} creada`,
    updatedDone: (name: string) => `App ${name} actualizada`,
    deletedDone: (name: string) => `App ${name} eliminada`,
    /** How the apps reach the devices: '{before} «{action}» desde {la página de dispositivos}.' */
    pushNote: {
      before: 'Guardar una app no la envía a los dispositivos: para instalarla o actualizarla, use la acción',
      action: actionName(DEVICE_ACTION.UPDATE_APP_BUSINESS),
    },
  },

  lockApp: {
    create: 'Nueva versión',
    createTitle: 'Nueva versión de la app de bloqueo',
    editTitle: 'Editar versión de la app de bloqueo',
    deleteTitle: 'Eliminar versión',
    markCurrent: 'Marcar como actual',
    markCurrentTitle: 'Marcar como versión actual',
    editOf: (version: string) => `Editar la versión ${version}`,
    deleteOf: (version: string) => `Eliminar la versión ${version}`,
    markCurrentOf: (version: string) => `Marcar la versión ${version} como actual`,
    alreadyCurrent: 'Ya es la versión actual',
    caption: (deviceTypeLabel: string) => `Versiones de la app de bloqueo (${deviceTypeLabel})`,
    loading: 'Cargando versiones',
    empty: 'No hay versiones de la app de bloqueo',
    emptyHelp: 'Registre la primera versión y márquela como actual.',
    columns: {
      version: 'Versión',
      appType: 'Tipo de app',
      devices: 'Dispositivos',
      created: 'Creada',
      releaseNotes: 'Notas de la versión',
    },
    current: 'Actual',
    noCurrent: 'Ninguna versión está marcada como actual.',
    currentIs: (version: string) => `Versión actual: ${version}`,
    devicesOf: (n: number) => (n === 1 ? '1 dispositivo reporta esta versión' : `${count(n)} dispositivos reportan esta versión`),
    notesShow: 'Ver notas',
    notesShowOf: (version: string) => `Ver notas de la versión ${version}`,
    notesTitle: (version: string) => `Notas de la versión ${version}`,
    packageHelp: 'El paquete de la app de bloqueo: lo usa el código QR de aprovisionamiento de Android.',
    urlPlaceholder: 'https://',
    sha256Help: 'La suma SHA-256 del APK, como la imprime sha256sum (64 caracteres hexadecimales).',
    releaseNotesHelp: 'Opcional: qué cambia en esta versión.',
    confirmMarkCurrent: (version: string) => `¿Marcar la versión ${version} como actual?`,
    markCurrentAgents: (deviceType: number) =>
      deviceType === DEVICE_TYPE.TV
        ? 'Se pedirá a los agentes de las TV que se actualicen a esta versión.'
        : 'Se pedirá a los agentes de los smartphones que se actualicen a esta versión.',
    markCurrentSidebar: 'Será la versión que se muestra al pie del menú lateral.',
    confirmDelete: (version: string) => `¿Eliminar la versión ${version}? Esta acción no se puede deshacer.`,
    cannotDeleteCurrent: 'Es la versión actual',
    createdDone: (version: string) => `Versión ${version} creada`,
    updatedDone: (version: string) => `Versión ${version} actualizada`,
    deletedDone: (version: string) => `Versión ${version} eliminada`,
    markedCurrentDone: (version: string) => `Versión ${version} marcada como actual`,
    /** How the current version reaches the devices: '{before} «{action}» desde {la página de dispositivos}.' */
    pushNote: {
      before: 'Para instalar la versión actual en los dispositivos, use la acción',
      action: actionName(DEVICE_ACTION.UPDATE_APP_MACRO),
    },
  },
} as const;
