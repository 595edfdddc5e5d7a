import { MESSAGES } from '../../../shared/messages';
import type { PortalUser } from '../../../shared/contracts/users';
import { detailsFromPaths } from '../../../shared/permissions';
import { record, type AuditActor } from '../../audit/auditRepository';
import { revocationsFor } from '../../auth/sessionRevocations';
import { transaction } from '../../db/transactionScope';
import { AppError } from '../../errors';
import type { AuthContext } from '../../middleware/authenticate';
import type { UsersRepository } from './usersRepository';

export class UsersService {
  constructor(private readonly repo: UsersRepository) {}

  /**
   * The signed-in administrator's record and profile (reference §3 shape). `adminId` is the
   * administrator the guard bound to the caller's identity user.
   */
  async getByEmail(caller: AuthContext, adminId: number, correo: string): Promise<PortalUser> {
    // Only one's own record: the e-mail comes from the verified ID token.
    if (correo.toLowerCase() !== caller.email.toLowerCase()) throw new AppError(403, 'FORBIDDEN', MESSAGES.api.forbidden);
    const admin = await this.repo.findById(adminId);
    if (!admin || admin.correo.toLowerCase() !== correo.toLowerCase()) throw new AppError(404, 'USER_NOT_FOUND', MESSAGES.api.userNotFound);
    if (!admin.enabled) throw new AppError(403, 'USER_DISABLED', MESSAGES.api.userDisabled);
    return {
      id: admin.id,
      correo: admin.correo,
      nombres: admin.nombres,
      apellidos: admin.apellidos,
      profile: { id: admin.profileId, nombre: admin.profileNombre, details: detailsFromPaths(admin.paths), actions: admin.actions },
    };
  }

  /**
   * The portal's sign-out: the caller's sign-in ends for the API at once, whatever the identity
   * service does with its tokens (a Cognito access token stays valid until it expires).
   */
  async signOut(actor: AuditActor, caller: AuthContext): Promise<void> {
    await transaction(this.repo.db, async (tx) => {
      await revocationsFor(this.repo.db).revoke(tx, { sub: caller.sub, ...(caller.originJti ? { originJti: caller.originJti } : {}) });
      await record(tx, { actor, entity: 'session', action: 'sign_out' });
    });
  }
}
