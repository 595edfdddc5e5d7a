import { count, plural } from './spanishNumbers';

/**
 * Spanish labels of the inventory's lists (enrolled and pre-enrolled devices), their actions and
 * bulk actions. What only loads later or elsewhere has its own module: a device's detail
 * (deviceDetailLabels.ts), QR enrollment (enrollmentLabels.ts), Agregar dispositivo
 * (addDeviceLabels.ts), the groups page (groupLabels.ts). The API's texts are in
 * `INVENTORY_MESSAGES` (shared/areaMessages/inventory.ts); the codes' labels in domain.ts and deviceActions.ts.
 */

export const INVENTORY_LABELS = {
  /** Shared by every inventory page. */
  common: {
    all: 'Todos',
    confirm: 'Confirmar',
    close: 'Cerrar',
    loading: 'Cargando...',
    noGroup: 'Sin grupo',
  },

  /** The enrolled devices page: table, filters, paging, export. */
  devices: {
    search: 'Buscar dispositivos',
    searchPlaceholder: 'IMEI, serie, cliente o referencia de crédito',
    filters: 'Filtros',
    clearFilters: 'Limpiar filtros',
    export: 'Exportar CSV',
    exported: 'Exportación descargada',
    tableCaption: 'Dispositivos enrolados',
    empty: 'No hay dispositivos enrolados',
    emptyFiltered: 'Ningún dispositivo coincide con los filtros',
    /** The filters a dashboard's link sets (no control of their own): removable chips next to the others. */
    chips: {
      list: 'Filtros aplicados',
      inFlight: 'Con comando en curso',
      locked: 'Bloqueados o bloqueándose',
      agentVersion: (version: string) => `Versión del agente: ${version}`,
      agentVersionNot: (version: string) => `Versión del agente distinta de ${version}`,
      releasedFrom: (date: string) => `Liberados desde el ${date}`,
      remove: (chip: string) => `Quitar filtro ${chip}`,
    },
    loading: 'Cargando dispositivos',
    columns: {
      imei: 'IMEI',
      type: 'Tipo',
      brandModel: 'Marca / modelo',
      status: 'Estado',
      lockType: 'Tipo de bloqueo',
      group: 'Grupo',
      customer: 'Cliente / referencia',
      lastSeen: 'Última conexión',
      agentVersion: 'Versión del agente',
      actions: 'Acciones',
    },
    sortBy: (column: string) => `Ordenar por ${column}`,
    selectRow: (imei: string) => `Seleccionar el dispositivo ${imei}`,
    selectPage: 'Seleccionar los dispositivos de esta página',
    perPage: 'Resultados por página',
    pagination: 'Paginación',
    /** The pager's text; `estimate` marks an estimated total with '≈'. */
    pageOf: (page: number, pages: number, total: number, estimate: boolean) =>
      `Página ${count(page)} de ${estimate ? '≈' : ''}${count(pages)} (${estimate ? '≈' : ''}${count(total)} ${plural(total, 'dispositivo', 'dispositivos')})`,
    viewDetail: 'Ver detalle',
    viewDetailOf: (imei: string) => `Ver el detalle del dispositivo ${imei}`,
    neverSeen: 'Nunca',
    /** Under the 'Liberando' badge: when the release reaches the device (the end of its cancel window). */
    releaseFrom: (at: string) => `Se entrega desde el ${at}`,
  },

  /** The row action menu and the action confirmation modals. */
  actions: {
    /** The row menu's sections (Eliminar goes last, on its own). */
    groups: { lock: 'Bloqueo', communication: 'Comunicación', configuration: 'Configuración', offlineCodes: 'Códigos sin conexión' },
    noneGranted: 'Su perfil no permite acciones sobre los dispositivos',
    menu: 'Acciones',
    menuOf: (imei: string) => `Acciones del dispositivo ${imei}`,
    confirmAction: (action: string, imei: string) => `¿Solicitar la acción "${action}" para el dispositivo con IMEI ${imei}?`,
    releaseNote: (hours: number) => `La liberación se puede cancelar durante ${hours} horas; después el dispositivo queda liberado definitivamente.`,
    offlineCodeNote: 'Se generará un código de 8 dígitos que se mostrará una sola vez.',
    deleteTitle: 'Eliminar dispositivo',
    confirmDelete: (imei: string) => `¿Eliminar el dispositivo con IMEI ${imei}? Esta acción no se puede deshacer.`,
    deleteConfirmLabel: 'Eliminar',
    deleted: (imei: string) => `Dispositivo ${imei} eliminado`,
    requested: (action: string, imei: string) => `Acción "${action}" solicitada para el dispositivo ${imei}`,
    lockType: 'Tipo de bloqueo',
    lockMessage: 'Mensaje en la pantalla de bloqueo',
    stolen: 'Reportado como robado',
    until: 'Hasta',
    untilHelp: 'Opcional: el desbloqueo dura hasta esta fecha y hora; vacío, es permanente.',
    validUntil: 'Válido hasta',
    validUntilHelp: (days: number) => `El código vale hasta el final del día elegido (máximo ${days} días).`,
    notificationTitle: 'Título',
    notificationMessage: 'Mensaje',
    persistent: 'Persistente: queda en la pantalla hasta que el cliente confirme que lo leyó',
    reference: 'Referencia de pago',
    referenceHelp: 'Letras, números y guiones.',
    /** A command the device has not received yet can be cancelled (row menu and detail). */
    cancelPending: 'Cancelar comando pendiente',
    confirmCancelPending: (action: string, imei: string) =>
      `¿Cancelar el comando pendiente "${action}" del dispositivo con IMEI ${imei}? El dispositivo aún no lo ha recibido.`,
    commandCancelled: 'Comando cancelado',
    /** A scheduled release delivered before the end of its cancel window (row menu and detail). */
    deliverNow: 'Entregar ahora',
    deliverNowTitle: 'Entregar la liberación ahora',
    confirmDeliverNow: (imei: string, customer: string) =>
      `¿Entregar ahora la liberación del dispositivo con IMEI ${imei} (cliente: ${customer})? Termina el periodo de cancelación: el dispositivo la recibirá en su próxima conexión y quedará liberado definitivamente.`,
    noCustomer: 'sin cliente',
    deliverNowDone: (imei: string) => `La liberación del dispositivo ${imei} se entregará en su próxima conexión`,
  },

  /** Bulk selection, the bulk bar and the bulk action modal. */
  bulk: {
    selected: (n: number, estimate = false) =>
      `${estimate ? '≈' : ''}${count(n)} ${plural(n, 'dispositivo seleccionado', 'dispositivos seleccionados')}`,
    pageSelected: (n: number) => `${plural(n, 'Está seleccionado', 'Están seleccionados')} los ${count(n)} dispositivos de esta página.`,
    selectAllMatching: (n: number, estimate: boolean) => `Seleccionar los ${estimate ? '≈' : ''}${count(n)} dispositivos que coinciden con el filtro`,
    allMatchingSelected: (n: number, estimate: boolean) =>
      `${plural(n, 'Está seleccionado', 'Están seleccionados')} los ${estimate ? '≈' : ''}${count(n)} dispositivos que coinciden con el filtro.`,
    clearSelection: 'Quitar selección',
    action: 'Acción masiva',
    chooseAction: 'Seleccione una acción',
    apply: 'Continuar',
    title: (action: string) => `Acción masiva: ${action}`,
    noPayload: (action: string) => `Se solicitará la acción "${action}" para los dispositivos seleccionados.`,
    preview: 'Vista previa',
    previewTitle: 'Resumen de la acción',
    total: 'Dispositivos seleccionados',
    eligible: 'Recibirán la acción',
    byStatus: 'Por estado',
    skipped: 'Se omitirán',
    noneSkipped: 'Ninguno se omitirá',
    offline: 'Sin conexión (la recibirán al reconectarse)',
    overLimit: (max: number) => `La selección supera el máximo de ${count(max)} dispositivos por acción masiva; acote los filtros.`,
    nothingEligible: 'Ningún dispositivo de la selección admite esta acción',
    back: 'Atrás',
    confirm: 'Confirmar',
    started: (action: string) => `Acción masiva "${action}" iniciada`,
    progress: 'Progreso',
    progressText: (processed: number, total: number) => `${count(processed)} de ${count(total)} procesados`,
    jobStatuses: { queued: 'En cola', running: 'En proceso', completed: 'Terminado', failed: 'Fallido' },
    succeeded: 'Realizados',
    skippedResult: 'Omitidos',
    failed: 'Fallidos',
    jobError: 'Error del trabajo',
    download: 'Descargar resultados (CSV)',
    downloaded: 'Resultados descargados',
    /** Where a finished job's commands are (followed while some are on their way). */
    commandsProgress: (c: { acknowledged: number; delivered: number; waiting: number; rejected: number; cancelled: number }) =>
      `Comandos: ${count(c.acknowledged)} confirmados, ${count(c.delivered)} recibidos, ${count(c.waiting)} en espera, ${count(c.rejected)} rechazados, ${count(c.cancelled)} cancelados`,
    stopFollowing: 'Dejar de seguir los comandos',
  },

  // The registration, pre-enrolled and groups pages, and the one-device form.
  /** The one-device form (registration and edit). */
  deviceForm: {
    imei: 'IMEI',
    imei2: 'IMEI 2 (opcional)',
    serial: 'Número de serie',
    deviceType: 'Tipo',
    brand: 'Marca',
    model: 'Modelo',
    group: 'Grupo',
    noGroup: 'Sin grupo',
    customerName: 'Cliente',
    creditReference: 'Referencia de crédito',
  },
  preEnrolled: {
    register: 'Registrar dispositivo',
    search: 'Buscar dispositivos pre-enrolados',
    searchPlaceholder: 'Buscar por IMEI, serie, cliente o referencia',
    filterGroup: 'Filtrar por grupo',
    groupAll: 'Grupo: Todos',
    imei: 'IMEI',
    type: 'Tipo',
    brandModel: 'Marca / modelo',
    group: 'Grupo',
    customer: 'Cliente',
    reference: 'Referencia',
    registered: 'Registrado',
    actions: 'Acciones',
    sortBy: (column: string) => `Ordenar por ${column}`,
    empty: 'No hay dispositivos pre-enrolados',
    noResults: 'No hay resultados',
    edit: 'Editar',
    editTitle: 'Editar dispositivo',
    editOf: (imei: string) => `Editar el dispositivo ${imei}`,
    assignGroup: 'Asignar grupo',
    assignGroupOf: (imei: string) => `Asignar grupo al dispositivo ${imei}`,
    assignGroupText: (imei: string) => `Grupo del dispositivo con IMEI ${imei}`,
    delete: 'Eliminar',
    deleteTitle: 'Eliminar dispositivo',
    deleteOf: (imei: string) => `Eliminar el dispositivo ${imei}`,
    confirmDelete: (imei: string) => `¿Eliminar el dispositivo con IMEI ${imei}? Dejará de aparecer en el inventario.`,
    updated: (imei: string) => `Dispositivo con IMEI ${imei} actualizado`,
    groupAssigned: (imei: string) => `Grupo del dispositivo con IMEI ${imei} actualizado`,
    deleted: (imei: string) => `Dispositivo con IMEI ${imei} eliminado`,
  },

  /** 'Autorizar reenrolamiento': one enrolled device enrolls again after a factory reset. */
  reenrollment: {
    action: 'Autorizar reenrolamiento',
    title: (imei: string) => `Autorizar reenrolamiento — dispositivo ${imei}`,
    intro:
      'Use esta autorización solo si el dispositivo fue restablecido de fábrica o se reinstaló la app de bloqueo. Un código QR de grupo nunca vuelve a enrolar un dispositivo enrolado.',
    effects:
      'Se genera un código solo para este dispositivo, de un solo uso. Al enrolarse recibe credenciales nuevas: las anteriores y los códigos sin conexión emitidos antes dejan de funcionar. Su bloqueo y sus comandos pendientes se conservan.',
    imei: 'IMEI',
    customer: 'Cliente',
    noCustomer: 'Sin cliente registrado',
    validity: 'Vigencia de la autorización',
    confirm: 'Autorizar',
    authorized: 'Reenrolamiento autorizado',
    resultTitle: 'Código de reenrolamiento',
  },
} as const;
