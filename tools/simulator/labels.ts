/** The fleet simulator's Spanish texts: what its agents answer and what `npm run simulate` prints. */

/** Reasons a simulated agent gives when it rejects a command (as a real device would explain it). */
export const REJECT_REASONS: readonly string[] = [
  'El usuario canceló la operación en el dispositivo',
  'Sin permisos de administrador del dispositivo',
  'El dispositivo no tiene espacio suficiente',
  'La aplicación de bloqueo no respondió a tiempo',
  'El sistema operativo no admite la restricción solicitada',
];

/** Customer names of the devices the simulator registers. */
export const CUSTOMER_NAMES: readonly string[] = [
  'María Hernández López',
  'José García Martínez',
  'Guadalupe Pérez Sánchez',
  'Juan Ramírez Cruz',
  'Ana Flores Gómez',
  'Luis Morales Vázquez',
  'Verónica Reyes Jiménez',
  'Jorge Torres Díaz',
  'Alejandra Gutiérrez Ruiz',
  'Miguel Mendoza Aguilar',
];

/** Texts of the portal actions the scenario requests. */
export const SCENARIO_TEXT = {
  lockMessage: 'Su equipo está bloqueado por falta de pago. Comuníquese al 800 123 4567 para regularizar su crédito.',
  notificationTitle: 'Recordatorio de pago',
  notificationMessage: 'Su próximo pago vence en 3 días. Evite el bloqueo de su equipo.',
} as const;

/** Why a scenario role stopped short of its goal (the summary shows it). */
export const ROLE_TEXT = {
  steps: {
    lock: 'bloqueo',
    unlock: 'desbloqueo',
    restrictions: 'restricciones',
    activeAfterUnlock: 'activo tras el desbloqueo',
    unlockedQuiet: 'desbloqueado',
    restrictionsLocked: 'restricciones con bloqueo',
    restrictionsActive: 'restricciones sin bloqueo',
    rejection: 'rechazo',
    inFlight: 'comando en curso',
    release: 'liberación',
    offlineLock: 'bloqueo sin conexión',
    redeemed: 'código canjeado',
  },
  /** `step`, and the status the device had instead (its Spanish label). */
  stoppedAt: (step: string, status: string) => `${step}: estado ${status}`,
  noFirstCheckin: 'sin primer check-in',
  noCode: 'la acción no entregó código',
  codeRefused: 'código rechazado',
  interrupted: 'interrumpido',
} as const;

/** Sign-in of the simulator to the portal. */
export const PORTAL_TEXT = {
  newPasswordRequired: 'la cuenta debe elegir una contraseña nueva en el portal antes de usarse aquí',
  noSession: 'no hay sesión',
} as const;

/** `--payments`: the customers who pay through the integration API. */
export const PAYMENT_TEXT = {
  badRates: (text: string) => `--payments debe escribirse como on-time=0.7,late=0.2,never=0.1 (fracciones o porcentajes; se recibió «${text}»).`,
  ratesSum: (percent: number) => `Las proporciones de --payments deben sumar 100 % (suman ${percent} %).`,
  missingApiKey:
    '--payments necesita una clave de API con la página Cartera de créditos y la acción Registrar y revertir pagos: usa --api-key o define INTEGRATION_API_KEY (npm run -s integration -- key --name Simulador la crea).',
  missingPassword: '--payments lee la cartera con la cuenta del portal: usa --password o define DEMO_PASSWORD.',
  devicesWithoutPayments: '--devices 0 solo tiene sentido con --payments (sin dispositivos simulados, solo pagos).',
  progress: (p: {
    customers: { onTime: number; late: number; never: number };
    applied: { onTime: number; late: number };
    amount: string;
    replayed: number;
    scheduled: number;
    refused: Record<string, number>;
    errors: number;
  }) =>
    `Pagos: ${p.applied.onTime + p.applied.late} aplicados (${p.applied.onTime} puntuales, ${p.applied.late} tardíos) por ${p.amount} · ` +
    `${p.scheduled} por pagar · ${p.replayed} ya aplicados · clientes: ${p.customers.onTime} puntuales, ${p.customers.late} tardíos, ` +
    `${p.customers.never} que no pagan · rechazados: ${Object.values(p.refused).reduce((a, b) => a + b, 0)}` +
    `${
      Object.keys(p.refused).length
        ? ` (${Object.entries(p.refused)
            .map(([k, n]) => `${k}: ${n}`)
            .join(', ')})`
        : ''
    } · errores: ${p.errors}`,
} as const;

/** `npm run simulate`: flag errors and the summary. */
export const CLI_TEXT = {
  usage: `Uso: npm run simulate -- --url http://localhost:3000 --devices 500 [--duration 120] [--offline 5%] [--reject 1%]
       [--wait 20] [--json] [--email admin@demo.local --password …] [--existing] [--no-scenario] [--allow-remote] [--seed N]
       [--payments [on-time=0.7,late=0.2,never=0.1] --api-key mlk_…]`,
  unknownFlag: (detail: string) => `Opción no reconocida: ${detail}`,
  missingUrl: 'Falta --url (p. ej. --url http://localhost:3000).',
  badUrl: (url: string) => `--url no es una URL http(s) válida: ${url}`,
  remoteUrl: (host: string) =>
    `--url apunta a ${host}, que no es esta máquina: agrega --allow-remote si de verdad quieres simular contra otro servidor.`,
  intRange: (flag: string, min: number, max: number) => `--${flag} debe ser un número entero entre ${min} y ${max}.`,
  rate: (flag: string) => `--${flag} debe ser un porcentaje entre 0% y 100% (p. ej. 5% o 0.05).`,
  delay: 'Los retardos deben escribirse como MIN-MAX en milisegundos (p. ej. 200-1500), con MIN ≤ MAX ≤ 60000.',
  missingPassword:
    'Falta la contraseña del portal: usa --password o define DEMO_PASSWORD (o usa --no-scenario para solo simular agentes con --token).',
  tokenWithoutScenario: 'Sin escenario (--no-scenario) hace falta --token con un token de enrolamiento.',
  existingWithoutScenario: '--existing necesita el escenario (no se puede usar con --no-scenario).',
  signInFailed: (detail: string) => `No se pudo iniciar sesión en el portal: ${detail}`,
  prepareFailed: (detail: string) => `No se pudo preparar la flota: ${detail}`,
  interrupted: 'Interrumpido: deteniendo los agentes…',
  preparing: (n: number) => `Preparando ${n} dispositivos…`,
  noPreEnrolled: (wanted: number, found: number) => `Se pidieron ${wanted} dispositivos existentes y solo hay ${found} pre-enrolados: se usan esos.`,
  summaryTitle: 'Resumen de la simulación',
  unknownStatus: 'Sin respuesta',
  line: (p: { statuses: string; rate: string; errors: number; bar: string; elapsed: string }) =>
    `${p.bar} ${p.elapsed} | ${p.statuses} | ${p.rate} comandos/s | errores: ${p.errors}`,
  totals: (p: { checkins: number; acknowledged: number; rejected: number; errors: number }) =>
    `Check-ins: ${p.checkins} · comandos confirmados: ${p.acknowledged} · rechazados: ${p.rejected} · errores: ${p.errors}`,
  refused: (r: { status: number; code: string | null; message: string; devices: number }) =>
    `Enrolamiento rechazado (${r.devices} ${r.devices === 1 ? 'dispositivo' : 'dispositivos'}): ${r.status}${r.code ? ` ${r.code}` : ''}: ${r.message}`,
  rolesShort: (short: number, total: number, example: string) => `Roles sin completar: ${short} de ${total} (p. ej. ${example})`,
  offlineNote: (hours: number | null) =>
    hours === null
      ? "'Sin conexión' solo aparece cuando un dispositivo pasa DEVICE_OFFLINE_AFTER_HOURS sin reportarse (admite fracciones: 0.02 son 72 s)."
      : `'Sin conexión' solo aparece tras ${hours} h sin reportarse (DEVICE_OFFLINE_AFTER_HOURS).`,
} as const;
