import { useEffect, useRef } from 'react';
import Form from 'react-bootstrap/Form';
import { ADMIN_LABELS as L } from '../../../shared/constants/adminLabels';
import { DEVICE_ACTIONS } from '../../../shared/constants/deviceActions';
import { ROLE_ACTIONS } from '../../../shared/constants/roleActions';
import { MENU, type MenuModule } from '../../../shared/constants/routes';

export interface PermissionTreeProps {
  paths: readonly string[];
  actions: readonly number[];
  onChange: (next: { paths: string[]; actions: number[] }) => void;
  idPrefix: string;
}

function ModuleCheckbox({
  module,
  checked,
  indeterminate,
  onToggle,
  id,
}: {
  module: MenuModule;
  checked: boolean;
  indeterminate: boolean;
  onToggle: () => void;
  id: string;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = indeterminate;
  }, [indeterminate]);
  return (
    <Form.Check
      id={id}
      ref={ref}
      type="checkbox"
      className="fw-semibold"
      label={module.title}
      checked={checked}
      aria-checked={indeterminate ? 'mixed' : checked}
      onChange={onToggle}
    />
  );
}

/** The two groups of action checkboxes: the device actions, and the role actions that act on no device. */
const ACTION_GROUPS = [
  { legend: L.roles.deviceActions, actions: DEVICE_ACTIONS },
  { legend: L.roles.roleActions, actions: ROLE_ACTIONS },
] as const;

/**
 * The role editor's grants: the menu tree (a checkbox per module and submodule path; a module
 * toggles its pages and shows mixed when only some are granted), the device actions and the other
 * role actions (registering payments…), each group apart.
 */
export function PermissionTree({ paths, actions, onChange, idPrefix }: PermissionTreeProps) {
  const granted = new Set(paths);
  const grantedActions = new Set(actions);
  const ordered = (set: Set<string>) => MENU.flatMap((m) => [m.path, ...m.submodules.map((s) => s.path)]).filter((p) => set.has(p));

  const setPaths = (next: Set<string>) => onChange({ paths: ordered(next), actions: [...grantedActions].sort((a, b) => a - b) });

  const toggleModule = (m: MenuModule) => {
    const next = new Set(granted);
    const all = [m.path, ...m.submodules.map((s) => s.path)];
    const on = !all.every((p) => next.has(p));
    for (const p of all) {
      if (on) next.add(p);
      else next.delete(p);
    }
    setPaths(next);
  };

  const toggleSub = (m: MenuModule, path: string) => {
    const next = new Set(granted);
    if (next.has(path)) next.delete(path);
    else next.add(path);
    // The module is granted while any of its pages is.
    if (m.submodules.some((s) => next.has(s.path))) next.add(m.path);
    else next.delete(m.path);
    setPaths(next);
  };

  const toggleAction = (code: number) => {
    const next = new Set(grantedActions);
    if (next.has(code)) next.delete(code);
    else next.add(code);
    onChange({ paths: [...paths], actions: [...next].sort((a, b) => a - b) });
  };

  return (
    <div className="row g-3">
      <fieldset className="col-md-7">
        <legend className="h6">{L.roles.permissions}</legend>
        <ul className="list-unstyled mb-0" data-testid="permission-tree">
          {MENU.map((m) => {
            const subs = m.submodules.map((s) => s.path);
            const count = subs.filter((p) => granted.has(p)).length;
            const checked = granted.has(m.path) && count === subs.length;
            const indeterminate = !checked && (count > 0 || granted.has(m.path));
            return (
              <li key={m.path} className="mb-2">
                <ModuleCheckbox
                  id={`${idPrefix}-path-${m.path}`}
                  module={m}
                  checked={checked}
                  indeterminate={indeterminate}
                  onToggle={() => toggleModule(m)}
                />
                <ul className="list-unstyled ms-4 mb-0">
                  {m.submodules.map((s) => (
                    <li key={s.path}>
                      <Form.Check
                        id={`${idPrefix}-path-${s.path}`}
                        type="checkbox"
                        label={s.title}
                        aria-label={`${m.title}: ${s.title}`}
                        checked={granted.has(s.path)}
                        onChange={() => toggleSub(m, s.path)}
                      />
                    </li>
                  ))}
                </ul>
              </li>
            );
          })}
        </ul>
      </fieldset>
      <div className="col-md-5">
        {ACTION_GROUPS.map((group) => (
          <fieldset key={group.legend} className="mb-3">
            <legend className="h6">{group.legend}</legend>
            {group.actions.map((a) => (
              <Form.Check
                key={a.code}
                id={`${idPrefix}-action-${a.code}`}
                type="checkbox"
                label={a.label}
                checked={grantedActions.has(a.code)}
                onChange={() => toggleAction(a.code)}
              />
            ))}
          </fieldset>
        ))}
      </div>
    </div>
  );
}
