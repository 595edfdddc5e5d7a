import { Router } from 'express';
import { PATHS } from '../../../shared/constants/routes';
import { ROLE_ACTION } from '../../../shared/constants/roleActions';
import { collectionPolicyBody, collectionPolicyScopeQuery } from '../../../shared/contracts/credits';
import { actorOf } from '../../audit/actorOf';
import type { CollectionService } from '../../credits';
import { requireAction, requirePath, type Guard } from '../../middleware/authorize';
import { route } from '../../middleware/validate';

/**
 * /api/v5/collection-policy: the collection policy, global or a group's (`?groupId=`). Reading it
 * takes the page Política de cobranza; saving it also the role action 102 (Editar política de cobranza).
 */
export function collectionPolicyRouter(can: Guard, service: CollectionService): Router {
  const router = Router();
  router.get(
    '/',
    can(requirePath(PATHS.collectionPolicy)),
    route({ query: collectionPolicyScopeQuery }, async ({ query }, _req, res) => {
      res.json(await service.get(query.groupId ?? null));
    }),
  );
  router.put(
    '/',
    can(requireAction(PATHS.collectionPolicy, ROLE_ACTION.EDIT_COLLECTION_POLICY)),
    route({ query: collectionPolicyScopeQuery, body: collectionPolicyBody }, async ({ query, body }, req, res) => {
      res.json(await service.save(actorOf(req, res), query.groupId ?? null, body));
    }),
  );
  return router;
}
