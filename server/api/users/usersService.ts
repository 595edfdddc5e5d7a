import { MESSAGES } from '../../../shared/messages';
import { detailsFromPaths, type PortalProfile } from '../../../shared/permissions';
import { AppError } from '../../errors';
import type { AuthContext } from '../../middleware/authenticate';
import type { UsersRepository } from './usersRepository';

export interface PortalUser {
  id: number;
  correo: string;
  nombres: string;
  apellidos: string;
  profile: PortalProfile & { id: number; actions: number[] };
}

export class UsersService {
  constructor(private readonly repo: UsersRepository) {}

  /** The signed-in administrator's record and profile (specification §3 shape). */
  async getByEmail(caller: AuthContext, correo: string): Promise<PortalUser> {
    // Only one's own record: the e-mail comes from the verified ID token.
    if (correo.toLowerCase() !== caller.email.toLowerCase()) throw new AppError(403, 'FORBIDDEN', MESSAGES.api.forbidden);
    const admin = await this.repo.findByEmail(correo);
    if (!admin) throw new AppError(404, 'USER_NOT_FOUND', MESSAGES.api.userNotFound);
    if (!admin.enabled) throw new AppError(403, 'USER_DISABLED', MESSAGES.api.userDisabled);
    return {
      id: admin.id,
      correo: admin.correo,
      nombres: admin.nombres,
      apellidos: admin.apellidos,
      profile: { id: admin.profileId, nombre: admin.profileNombre, details: detailsFromPaths(admin.paths), actions: admin.actions },
    };
  }
}
