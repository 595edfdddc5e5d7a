import { CSV_IMPORT_LABELS } from './csvImportLabels';

/**
 * Spanish labels of Agregar dispositivo (/inventory-management/add-device): the form and the CSV
 * registration; apart from INVENTORY_LABELS, which the devices list loads.
 */
export const ADD_DEVICE_LABELS = {
  oneTitle: 'Registrar un dispositivo',
  oneIntro: 'El dispositivo queda pre-enrolado hasta que el agente se enrola con su IMEI.',
  created: (imei: string) => `Dispositivo con IMEI ${imei} registrado`,
  createdDetail: (imei: string) => `Se registró el dispositivo con IMEI ${imei}.`,
  viewPreEnrolled: 'Ver dispositivos pre-enrolados',
  ...CSV_IMPORT_LABELS,
  csvTitle: 'Importar desde CSV',
  csvIntro: (maxRows: string, maxMb: number) =>
    `Hasta ${maxRows} filas y ${maxMb} MB, en UTF-8 o Windows-1252. Las columnas imei y tipo son obligatorias; tipo es Móvil o TV (o su código, 1 o 2) y grupo es el nombre de un grupo existente; las demás columnas se ignoran.`,
  valid: 'Válidas',
  invalid: 'Con errores',
  sampleTitle: 'Primeras filas válidas',
  noValidRows: 'El archivo no tiene filas válidas: corrija los errores y vuelva a cargarlo.',
  importValid: (n: number) => `Importar ${n.toLocaleString('es-MX')} ${n === 1 ? 'fila válida' : 'filas válidas'}`,
  importNote: 'Solo se registran las filas válidas; las filas con errores no se importan.',
  importing: (n: number) => `Importando ${n.toLocaleString('es-MX')} ${n === 1 ? 'dispositivo' : 'dispositivos'}...`,
  imported: (n: number) => `Se registraron ${n.toLocaleString('es-MX')} ${n === 1 ? 'dispositivo' : 'dispositivos'}`,
  notImported: (n: number) => `${n.toLocaleString('es-MX')} ${n === 1 ? 'fila no se importó' : 'filas no se importaron'}:`,
} as const;
