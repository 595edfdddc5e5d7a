import { counted } from './spanishNumbers';

/**
 * Spanish texts of the agent settings' overview of each device type (/agent-settings,
 * /agent-settings-tv): apart from AGENT_SETTINGS_LABELS, which every section page loads.
 */
export const AGENT_SETTINGS_OVERVIEW_LABELS = {
  intro: 'Lo que aplica hoy a los dispositivos de este tipo: los valores globales de cada sección y los grupos que los personalizan.',
  lastChange: 'Último cambio',
  lastChangeBy: (at: string, who: string | null) => (who ? `${at}, por ${who}` : at),
  neverChanged: 'Sin cambios: se aplican los valores predeterminados',
  overrides: 'Grupos con personalización',
  open: 'Abrir',
  openOf: (title: string) => `Abrir ${title}`,
  lockApp: 'App de bloqueo',
  lockAppDescription: 'La versión del agente que se instala y a la que se actualizan los dispositivos.',
  currentVersion: 'Versión actual',
  versions: 'Versiones registradas',
  devices: 'Dispositivos enrolados',
  outdated: 'Con otra versión',
  outdatedCount: (n: number) => counted(n, 'dispositivo', 'dispositivos'),
  businessApps: 'Apps de negocio',
  businessAppsDescription: 'Las apps que el agente instala en los smartphones.',
  businessAppsTotal: 'Apps registradas',
} as const;
