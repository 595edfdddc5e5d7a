import { LOGO_MESSAGES } from './logo';

/** Agent settings, business apps and lock-app versions (/api/v5/agent-settings). */
export const AGENT_SETTINGS_MESSAGES = {
  field: {
    boolean: (label: string) => `El campo ${label} debe ser verdadero o falso`,
    integer: (label: string, min: number, max: number) => `El campo ${label} debe ser un número entero entre ${min} y ${max}`,
    oneOf: (label: string, values: readonly string[]) => `El campo ${label} debe ser uno de: ${values.join(', ')}`,
    url: (label: string) => `El campo ${label} debe ser una dirección https válida`,
    phone: (label: string) => `El campo ${label} debe tener de 8 a 15 dígitos (puede empezar con + y llevar espacios o guiones)`,
    time: (label: string) => `El campo ${label} debe ser una hora HH:MM`,
    color: (label: string) => `El campo ${label} debe ser un color #RRGGBB`,
    logo: (label: string) => `El campo ${label} debe ser un logotipo subido al portal`,
    sha256: (label: string) => `El campo ${label} debe ser un SHA-256 de 64 caracteres hexadecimales`,
    packageName: (label: string) => `El campo ${label} debe ser un nombre de paquete Android, por ejemplo com.empresa.app`,
    version: (label: string) => `El campo ${label} debe ser la versión cargada (un número entero) o null`,
    values: 'El campo Valores debe ser un objeto con los valores de la sección',
    unknownSetting: (key: string) => `«${key}» no es un ajuste de la configuración del agente`,
    otherSetting: (label: string) => `El ajuste ${label} no pertenece a esta página ni a este tipo de dispositivo`,
    groupIds: (label: string, max: number) => `El campo ${label} debe ser una lista de como máximo ${max} grupos`,
  },
  settings: {
    conflict: 'Otro administrador guardó esta configuración mientras la editaba. Recargue la página para ver sus cambios antes de guardar.',
    groupNotFound: 'El grupo no existe',
  },
  logo: LOGO_MESSAGES,
  businessApps: {
    notFound: 'App de negocio no encontrada',
    packageTaken: 'Ya existe una app de negocio con ese nombre de paquete',
    groupNotFound: 'Uno de los grupos no existe',
  },
  lockApp: {
    notFound: 'Versión de la app de bloqueo no encontrada',
    versionTaken: 'Ya existe esa versión de la app de bloqueo para este tipo de dispositivo',
    currentNotDeleted: 'La versión actual no se puede eliminar: marque otra como actual primero',
  },
} as const;
