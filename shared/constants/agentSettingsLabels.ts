import { count, counted } from './spanishNumbers';

/**
 * Spanish texts of the agent-settings pages: the overview of each device type, the section
 * pages (restrictions and screen design), the scope bar, the history and the lock-screen
 * preview. The label and help text of each setting are in shared/agentSettings.ts (never here);
 * the API's texts in AGENT_SETTINGS_MESSAGES (shared/messages.ts).
 */

export const AGENT_SETTINGS_LABELS = {
  common: {
    loading: 'Cargando...',
    loadError: 'No se pudo cargar la configuración',
    yes: 'Sí',
    no: 'No',
    /** A value that is an uploaded image (the logo) in a summary or a change. */
    image: 'Imagen',
  },

  /** The scope select at the top of a section page. */
  scope: {
    label: 'Ámbito',
    global: 'Global',
    globalHint: 'Los valores globales se aplican a todos los dispositivos, salvo en los grupos que los personalizan.',
    groupHint: (group: string) => `Los valores que no personalice se heredan de Global. Se aplican a los dispositivos del grupo ${group}.`,
    groupsLoadError: 'No se pudieron cargar los grupos',
    groupNotFound: 'El grupo elegido no existe.',
    backToGlobal: 'Ver Global',
  },

  /** The form of a section. */
  form: {
    saved: 'Configuración guardada',
    reload: 'Recargar',
    counterOf: (label: string, length: number, max: number) => `${label}: ${count(length)} de ${count(max)} caracteres`,
    colorPicker: (label: string) => `${label}: selector de color`,
    colorHex: (label: string) => `${label} (hexadecimal)`,
    inherited: 'Heredado de Global',
    inheritedValue: (value: string) => `Valor global: ${value}`,
    overridden: 'Personalizado para este grupo',
    backToGlobal: 'Usar valor global',
    backToGlobalOf: (label: string) => `Usar valor global en ${label}`,
    removeOverride: 'Quitar personalización del grupo',
    removeOverrideTitle: 'Quitar personalización',
    removeOverrideQuestion: (group: string, section: string) =>
      `El grupo ${group} dejará de personalizar ${section} y heredará todos los valores de Global. ¿Desea continuar?`,
    removeOverrideConfirm: 'Quitar personalización',
    overrideRemoved: (group: string) => `El grupo ${group} ahora hereda los valores de Global`,
    noOverrideYet: 'Este grupo aún no personaliza ningún valor de esta sección: cambie un valor para personalizarlo.',
    overriddenCount: (n: number) => `Este grupo personaliza ${counted(n, 'valor', 'valores')} de esta sección.`,
  },

  /** The groups that override the section. */
  overrides: {
    title: 'Grupos con personalización',
    none: 'Ningún grupo personaliza esta sección.',
    values: (n: number) => counted(n, 'valor', 'valores'),
  },

  /** The saved versions of the scope. */
  history: {
    title: 'Historial de cambios',
    empty: 'Todavía no se ha guardado ningún cambio en este ámbito.',
    version: (version: number) => `Versión ${version}`,
    by: (who: string) => `por ${who}`,
    arrow: '→',
    /** A value the global scope had not set (its default). */
    defaultValue: 'Predeterminado',
    defaultOf: (value: string) => `Predeterminado (${value})`,
    /** A value the group had not set (inherited from Global). */
    inheritedValue: 'Heredado',
  },

  /** The screen-design page: logo and lock-screen preview. */
  screen: {
    logoUpload: 'Subir logotipo',
    logoReplace: 'Cambiar logotipo',
    logoRemove: 'Quitar logotipo',
    logoCurrent: 'Logotipo actual',
    logoNone: 'Sin logotipo',
    logoUploaded: 'Logotipo subido: guarde para aplicarlo',
    preview: 'Vista previa de la pantalla de bloqueo',
    previewNote: 'Así verá el cliente la pantalla de su teléfono bloqueado.',
    previewLogo: 'Logotipo de la pantalla de bloqueo',
    previewCall: 'Llamar',
    previewEmergency: 'Llamada de emergencia',
    lowContrast: 'El color principal tiene poco contraste con el color de fondo: el título puede leerse mal.',
  },
} as const;
