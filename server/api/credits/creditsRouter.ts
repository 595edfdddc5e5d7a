import { API_PATHS } from '../../../shared/constants/apiPaths';
import { Router } from 'express';
import { PATHS } from '../../../shared/constants/routes';
import { ROLE_ACTION } from '../../../shared/constants/roleActions';
import {
  approvalParams,
  approvalsQuery,
  creditExportQuery,
  creditListQuery,
  creditParams,
  pauseBody,
  paymentBody,
  paymentParams,
} from '../../../shared/contracts/credits';
import { creditImportQuery, creditTemplateQuery } from '../../../shared/contracts/creditImport';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import { actorOf } from '../../audit/actorOf';
import { streamDownload } from '../../audit/csvResponse';
import type { CollectionService, CreditsService } from '../../credits';
import { requireAction, requirePath, type Guard } from '../../middleware/authorize';
import { csvBody, csvFile } from '../../middleware/csvBody';
import { route } from '../../middleware/validate';

/**
 * /api/v5/credits: the credit portfolio (list, summary, export, a credit's detail) with the page
 * Cartera de créditos; registering and reversing payments also with the role action 100; pausing
 * the collection (Promesa de pago) with the role action 101; deciding a release waiting for
 * approval with the device action RELEASE. The CSV import of schedules and payments takes the
 * grant of registering payments.
 */
export function creditsRouter(can: Guard, service: CreditsService, collection: CollectionService): Router {
  const router = Router();
  const portfolio = () => can(requirePath(PATHS.creditPortfolio));
  const payments = () => can(requireAction(PATHS.creditPortfolio, ROLE_ACTION.REGISTER_PAYMENTS));
  const pausing = () => can(requireAction(PATHS.creditPortfolio, ROLE_ACTION.PAUSE_COLLECTION));
  const releasing = () => can(requireAction(PATHS.creditPortfolio, DEVICE_ACTION.RELEASE));

  router.get(
    '/',
    portfolio(),
    route({ query: creditListQuery }, async ({ query }, _req, res) => {
      res.json(await service.list(query));
    }),
  );

  // Fixed paths before the one that takes a reference.
  router.get(
    API_PATHS.credits.summary.pattern,
    portfolio(),
    route({}, async (_input, _req, res) => {
      res.json(await service.summary());
    }),
  );

  router.get(
    API_PATHS.credits.export.pattern,
    portfolio(),
    route({ query: creditExportQuery }, async ({ query }, req, res) => {
      const file = await service.export(actorOf(req, res), query, query.tz);
      res.status(200).set({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${file.fileName}"` });
      await streamDownload(req, res, file.chunks, 'credit export');
    }),
  );

  // The CSV imports write credits and payments: the grant of registering a payment.
  router.get(
    API_PATHS.credits.importTemplate.pattern,
    payments(),
    route({ query: creditTemplateQuery }, async ({ query }, _req, res) => {
      const file = service.importTemplate(query.kind);
      res
        .status(200)
        .set({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${file.fileName}"` })
        .send(file.content);
    }),
  );

  router.post(
    API_PATHS.credits.import.pattern,
    payments(),
    csvBody(),
    route({ query: creditImportQuery }, async ({ query }, req, res) => {
      res.json(await service.importCsv(actorOf(req, res), query.kind, csvFile(req), query.mode));
    }),
  );

  router.get(
    API_PATHS.credits.approvals.pattern,
    portfolio(),
    route({ query: approvalsQuery }, async ({ query }, _req, res) => {
      res.json(await collection.approvals(query));
    }),
  );

  router.post(
    API_PATHS.credits.approve.pattern,
    releasing(),
    route({ params: approvalParams }, async ({ params }, req, res) => {
      res.json(await collection.decide(actorOf(req, res), params.id, true));
    }),
  );

  router.post(
    API_PATHS.credits.reject.pattern,
    releasing(),
    route({ params: approvalParams }, async ({ params }, req, res) => {
      res.json(await collection.decide(actorOf(req, res), params.id, false));
    }),
  );

  router.get(
    API_PATHS.credits.one.pattern,
    portfolio(),
    route({ params: creditParams }, async ({ params }, _req, res) => {
      res.json(await service.detail(params.reference));
    }),
  );

  // The portal's dialog sends an externalId made once per dialog ('portal-' + a UUID): a retried
  // submit is the same payment, answered again.
  router.post(
    API_PATHS.credits.payments.pattern,
    payments(),
    route({ params: creditParams, body: paymentBody }, async ({ params, body }, req, res) => {
      const { replayed, result } = await service.registerPayment(actorOf(req, res), params.reference, body, 'portal');
      res.status(replayed ? 200 : 201).json(result);
    }),
  );

  router.post(
    API_PATHS.credits.reversal.pattern,
    payments(),
    route({ params: paymentParams }, async ({ params }, req, res) => {
      res.json(await service.reversePayment(actorOf(req, res), params.reference, params.externalId));
    }),
  );
  router.post(
    API_PATHS.credits.pause.pattern,
    pausing(),
    route({ params: creditParams, body: pauseBody }, async ({ params, body }, req, res) => {
      res.json(await collection.pause(actorOf(req, res), params.reference, body));
    }),
  );

  router.delete(
    API_PATHS.credits.pause.pattern,
    pausing(),
    route({ params: creditParams }, async ({ params }, req, res) => {
      res.json(await collection.resume(actorOf(req, res), params.reference));
    }),
  );
  return router;
}
