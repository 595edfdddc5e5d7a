import type { Group } from '../../../shared/contracts/groups';

/** The `<option>`s of a group select (the caller adds its own first option: 'Sin grupo', 'Todos'…). */
export function GroupOptions({ groups, exclude }: { groups: readonly Pick<Group, 'id' | 'name'>[]; exclude?: number }) {
  return (
    <>
      {groups
        .filter((g) => g.id !== exclude)
        .map((g) => (
          <option key={g.id} value={g.id}>
            {g.name}
          </option>
        ))}
    </>
  );
}
