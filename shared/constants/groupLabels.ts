/**
 * Spanish labels of the groups page (/inventory-management/devices-group) and its dialogs; apart
 * from INVENTORY_LABELS, which the devices list loads.
 */
export const GROUP_LABELS = {
  create: 'Crear grupo',
  createTitle: 'Nuevo grupo',
  rename: 'Renombrar',
  renameTitle: 'Renombrar grupo',
  renameOf: (name: string) => `Renombrar el grupo ${name}`,
  delete: 'Eliminar',
  deleteTitle: 'Eliminar grupo',
  deleteOf: (name: string) => `Eliminar el grupo ${name}`,
  name: 'Nombre',
  description: 'Descripción',
  descriptionOptional: 'Descripción (opcional)',
  devices: 'Dispositivos',
  enrolled: 'Enrolados',
  preEnrolled: 'Pre-enrolados',
  noGroup: 'Sin grupo',
  noGroupDescription: 'Dispositivos que no pertenecen a ningún grupo',
  created: 'Creado',
  actions: 'Acciones',
  /** The count links' names: each contains the count the link shows (WCAG 2.5.3, label in name). */
  viewEnrolled: (count: number, group: string) =>
    count === 1 ? `Ver 1 dispositivo enrolado ${group}` : `Ver los ${count.toLocaleString('es-MX')} dispositivos enrolados ${group}`,
  viewPreEnrolled: (count: number, group: string) =>
    count === 1 ? `Ver 1 dispositivo pre-enrolado ${group}` : `Ver los ${count.toLocaleString('es-MX')} dispositivos pre-enrolados ${group}`,
  ofGroup: (name: string) => `del grupo ${name}`,
  withoutGroup: 'sin grupo',
  empty: 'No hay grupos de dispositivos',
  confirmDelete: (name: string) => `¿Eliminar el grupo ${name}?`,
  moveTo: 'Mover los dispositivos al grupo',
  selectGroup: 'Seleccione un grupo',
  moveToRequired: 'Seleccione el grupo al que se moverán los dispositivos',
  noOtherGroup: 'No hay otro grupo al que mover los dispositivos: cree uno primero.',
  createdDone: (name: string) => `Grupo ${name} creado`,
  renamedDone: (name: string) => `Grupo ${name} actualizado`,
  deletedDone: (name: string) => `Grupo ${name} eliminado`,
} as const;
