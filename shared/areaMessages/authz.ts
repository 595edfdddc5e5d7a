import { FIELD_LABELS, type DeviceFieldKey } from '../constants/fieldLabels';

/** Refusals of the authorization rules: superiors, the last holder of a grant, device edits. */
export const AUTHZ_MESSAGES = {
  adminSuperior: (verb: 'modificar' | 'deshabilitar' | 'habilitar' | 'eliminar', what: string) =>
    `No puedes ${verb} a un administrador con permisos que tu perfil no tiene: ${what}`,
  roleSuperior: (verb: 'modificar' | 'eliminar', what: string) => `No puedes ${verb} un rol con permisos que tu perfil no tiene: ${what}`,
  apiKeySuperior: (verb: 'revocar', what: string) => `No puedes ${verb} una clave de API con permisos que tu perfil no tiene: ${what}`,
  lastHolder: (what: string) => `Ningún otro administrador habilitado conserva estos permisos, que no se pueden quitar: ${what}`,
  deviceIdentity: (field: DeviceFieldKey) => `El campo ${FIELD_LABELS.devices[field]} no se puede cambiar en un dispositivo enrolado`,
  deviceAssignment: 'Tu perfil no permite cambiar el cliente, la referencia de crédito ni el grupo de un dispositivo enrolado',
} as const;
