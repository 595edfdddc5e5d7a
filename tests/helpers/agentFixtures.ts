import request from 'supertest';
import type { EnrollResponse } from '../../shared/contracts/agent';
import type { Device } from '../../shared/contracts/devices';
import type { EnrollmentTokenCreated } from '../../shared/contracts/enrollment';
import type { PortalApp } from '../../server/app';

export interface EnrolledDevice {
  id: number;
  imei: string;
  /** The device token the enrollment answered. */
  token: string;
  enrolled: EnrollResponse;
}

/**
 * A smartphone registered through the portal API in `groupId` (Motorola Moto G24) and enrolled
 * through the agent API with a QR token of its group (OS 14, agent 2.4.1, and `sim` if given):
 * it shows Enrolando until its first check-in.
 */
export async function enrollDevice(
  app: PortalApp,
  admin: Record<string, string>,
  d: { imei: string; groupId: number; sim?: { iccid: string; carrier: string | null } },
): Promise<EnrolledDevice> {
  const created = await request(app)
    .post('/api/v5/devices')
    .set(admin)
    .send({ imei: d.imei, deviceType: 1, brand: 'Motorola', model: 'Moto G24', groupId: d.groupId });
  expect(created.status).toBe(201);
  const qr = await request(app).post('/api/v5/enrollment-tokens').set(admin).send({ groupId: d.groupId });
  expect(qr.status).toBe(201);
  const res = await request(app)
    .post('/agent/v1/enroll')
    .send({
      enrollmentToken: (qr.body as EnrollmentTokenCreated).shortCode.toLowerCase(),
      imei: d.imei,
      deviceType: 1,
      osVersion: '14',
      agentVersion: '2.4.1',
      ...(d.sim ? { sim: d.sim } : {}),
    });
  expect(res.status).toBe(201);
  const enrolled = res.body as EnrollResponse;
  return { id: (created.body as Device).id, imei: d.imei, token: enrolled.deviceToken, enrolled };
}
