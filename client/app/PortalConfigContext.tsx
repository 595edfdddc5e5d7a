import { createContext, useContext } from 'react';
import type { PublicConfig } from '../../shared/contracts/publicConfig';

const PortalConfigContext = createContext<PublicConfig | null>(null);

export const PortalConfigProvider = PortalConfigContext.Provider;

/** The public settings the server rendered into the page. */
export function usePortalConfig(): PublicConfig {
  const config = useContext(PortalConfigContext);
  if (!config) throw new Error('PortalConfigProvider is missing');
  return config;
}
