import { MENU, PATHS, type RoutePath } from './constants/routes';

/** A profile lists modules (with their paths) and their submodules (reference §3). */
export interface ProfileModule {
  path: string;
  submodules: { path: string }[];
}
export interface ProfileDetail {
  modulo: ProfileModule[];
}
export interface PortalProfile {
  nombre: string;
  details: ProfileDetail[];
}

/** Allowed paths = all module paths plus all submodule paths (reference §3). */
export function allowedPaths(profile: Pick<PortalProfile, 'details'> | null | undefined): Set<string> {
  const paths = new Set<string>();
  for (const detail of profile?.details ?? []) {
    for (const mod of detail.modulo ?? []) {
      if (mod.path) paths.add(mod.path);
      for (const sub of mod.submodules ?? []) if (sub.path) paths.add(sub.path);
    }
  }
  return paths;
}

/** The reference §3 `details` shape for a set of granted paths, in menu order. */
export function detailsFromPaths(granted: Iterable<string>): ProfileDetail[] {
  const set = new Set(granted);
  const modulo: ProfileModule[] = [];
  for (const m of MENU) {
    const submodules = m.submodules.filter((s) => set.has(s.path)).map((s) => ({ path: s.path }));
    if (set.has(m.path) || submodules.length) modulo.push({ path: set.has(m.path) ? m.path : '', submodules });
  }
  return modulo.length ? [{ modulo }] : [];
}

/** Pages every signed-in administrator may open, whatever the profile grants. */
export const ALWAYS_ALLOWED: readonly string[] = [PATHS.home, PATHS.account];

export function canAccess(allowed: Set<string>, path: string): boolean {
  return ALWAYS_ALLOWED.includes(path) || allowed.has(path);
}

/** The menu as the profile allows it: an entry shows only if its path is allowed, children too. */
export function filterMenu(allowed: Set<string>): typeof MENU {
  return MENU.filter((m) => allowed.has(m.path)).map((m) => ({
    ...m,
    submodules: m.submodules.filter((s) => allowed.has(s.path)),
  }));
}

/** Where `/` goes: the general dashboard when allowed, else the first allowed page of the menu. */
export function firstAllowedPath(allowed: Set<string>): RoutePath {
  if (allowed.has(PATHS.dashboardGeneral)) return PATHS.dashboardGeneral;
  for (const m of filterMenu(allowed)) {
    if (m.submodules[0]) return m.submodules[0].path;
    return m.path;
  }
  return PATHS.account;
}
