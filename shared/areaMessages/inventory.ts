import { FIELD_LABELS } from '../constants/fieldLabels';
import { CSV_IMPORT_MESSAGES } from './csv';
import { DEVICE_ACTION_MESSAGES } from './deviceActions';

/** Texts of the inventory API and pages (devices, groups, actions, bulk jobs, CSV). */
export const INVENTORY_MESSAGES = {
  field: {
    imei: (label: string) => `El campo ${label} debe tener 15 dígitos`,
    imeiCheckDigit: (label: string) => `El campo ${label} no es un IMEI válido (dígito verificador incorrecto)`,
    deviceType: (label: string) => `El campo ${label} debe ser 1 (Móvil) o 2 (TV)`,
    lockType: (label: string) => `El campo ${label} debe ser uno de: PorCredito, PorNoConexion, PorCambioSIM, SinKiosko`,
    action: (label: string) => `El campo ${label} debe ser un código de acción válido`,
    futureDate: (label: string) => `El campo ${label} debe ser una fecha futura`,
    dateTooFar: (label: string, days: number) => `El campo ${label} no puede estar a más de ${days} días`,
    date: (label: string) => `El campo ${label} debe ser una fecha y hora ISO 8601`,
    reference: (label: string) => `El campo ${label} solo admite letras, números y guiones`,
    ids: (label: string, max: number) => `El campo ${label} debe ser una lista de 1 a ${max} identificadores`,
    boolean: (label: string) => `El campo ${label} debe ser verdadero o falso`,
    selection: 'Indique los dispositivos: una lista de identificadores o un filtro, no ambos',
    filter: (label: string) => `El campo ${label} debe ser un objeto con los filtros de la lista de dispositivos`,
  },
  param: {
    status: `El parámetro ${FIELD_LABELS.deviceFilter.status} debe ser un código de estado o una entrada del filtro de estados`,
    groupId: `El parámetro ${FIELD_LABELS.deviceFilter.groupId} debe ser el id de un grupo o "none"`,
  },
  devices: {
    notFound: 'Dispositivo no encontrado',
    imeiTaken: (imei: string) => `Ya existe un dispositivo con el IMEI ${imei}`,
    groupNotFound: `El campo ${FIELD_LABELS.devices.groupId} no corresponde a un grupo existente`,
    imeiNotEditable: 'El IMEI solo se puede cambiar mientras el dispositivo está pre-enrolado',
  },
  actions: DEVICE_ACTION_MESSAGES,
  bulk: {
    tooMany: (max: number) => `Una acción masiva admite como máximo ${max.toLocaleString('es-MX')} dispositivos`,
    nothingToDo: 'Ningún dispositivo de la selección admite esta acción',
    jobNotFound: 'Trabajo no encontrado',
    failed: 'El trabajo se detuvo por un error inesperado; los lotes ya procesados se conservan y el resto no se aplicó',
    batchDetail: (action: string, done: number, skipped: number, failed: number) =>
      `${action}: ${done} realizados, ${skipped} omitidos, ${failed} fallidos`,
    /** The `resultado` column of a job's results CSV. */
    outcome: { done: 'realizado', skipped: 'omitido', failed: 'fallido' },
    resultsFileName: (id: number) => `trabajo-${id}.csv`,
  },
  groups: {
    notFound: 'Grupo no encontrado',
    nameTaken: 'Ya existe un grupo con ese nombre',
    notEmpty: (count: number) =>
      `El grupo tiene ${count === 1 ? '1 dispositivo' : `${count.toLocaleString('es-MX')} dispositivos`}; muévalos a otro grupo antes de eliminarlo`,
    moveToSelf: 'El grupo destino debe ser otro grupo',
    moveToNotFound: `El parámetro ${FIELD_LABELS.groups.moveTo} no corresponde a un grupo existente`,
  },
  csv: CSV_IMPORT_MESSAGES,
} as const;
