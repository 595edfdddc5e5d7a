import request from 'supertest';
import type { EnrollBodyInput, EnrollResponse } from '../../shared/contracts/agent';
import type { Device } from '../../shared/contracts/devices';
import type { EnrollmentTokenCreated } from '../../shared/contracts/enrollment';
import type { PortalApp } from '../../server/app';
import type { AgentCredentials } from '../../server/agent/agentService';
import { bodyDigest, newAgentKeys, proofOf, signRequest, type AgentKeys } from '../../server/agent/requestSignature';

/** What an agent holds after enrolling: its device token and the key pair it signs with. */
export interface AgentIdentity {
  token: string;
  keys: AgentKeys;
}

export interface EnrolledDevice extends AgentIdentity {
  id: number;
  imei: string;
  /** The device token the enrollment answered. */
  enrolled: EnrollResponse;
}

/**
 * POST /agent/v1/enroll as an agent sends it: `body` plus the public key of `keys` (a new pair
 * when absent). The answer, and the keys the agent would keep.
 */
export async function enrollAgent(
  app: PortalApp,
  body: Omit<EnrollBodyInput, 'publicKey'> & { publicKey?: unknown },
  keys?: AgentKeys,
): Promise<{ res: request.Response; keys: AgentKeys }> {
  const pair = keys ?? (await newAgentKeys());
  const res = await request(app)
    .post('/agent/v1/enroll')
    .send({ publicKey: pair.publicJwk, ...body });
  return { res, keys: pair };
}

/**
 * Signed requests to the agent API as `agent` (its bearer token and a signature by its key),
 * stamped with `now` (the test app's clock when it is not the real one). Each call answers the
 * supertest response.
 */
export function agentClient(app: PortalApp | (() => PortalApp), agent: AgentIdentity, opts: { now?: () => number } = {}) {
  // An Express app is a function too: the getter is told apart by the app's own methods.
  const appOf = (): PortalApp => ('listen' in app ? app : app());
  const send = async (method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<request.Response> => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const signed = await signRequest(agent.keys.privateKey, { method, path, body: text }, opts.now?.());
    const req = (method === 'GET' ? request(appOf()).get(path) : request(appOf()).post(path))
      .set('Authorization', `Bearer ${agent.token}`)
      .set(signed)
      .set(headers);
    return text === undefined ? req : req.set('Content-Type', 'application/json').send(text);
  };
  return {
    send,
    checkin: (body: Record<string, unknown> = {}) => send('POST', '/agent/v1/checkin', body),
    ack: (id: number) => send('POST', `/agent/v1/commands/${id}/ack`, {}),
    reject: (id: number, reason: string) => send('POST', `/agent/v1/commands/${id}/reject`, { reason }),
    event: (body: Record<string, unknown>) => send('POST', '/agent/v1/events', body),
    settings: (headers: Record<string, string> = {}) => send('GET', '/agent/v1/settings', undefined, headers),
  };
}
export type AgentClient = ReturnType<typeof agentClient>;

/** The credentials the agent service takes for a request signed now by `agent` (service-level tests). */
export async function credentialsOf(agent: AgentIdentity, method: string, path: string, body?: unknown): Promise<AgentCredentials> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers = await signRequest(agent.keys.privateKey, { method, path, body: text });
  const proof = proofOf((name) => headers[name], { method, path, bodySha256: bodyDigest(text) }, Date.now());
  if (!proof.ok) throw new Error(proof.code);
  return { token: agent.token, proof: proof.proof };
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
  const { res, keys } = await enrollAgent(app, {
    enrollmentToken: (qr.body as EnrollmentTokenCreated).shortCode.toLowerCase(),
    imei: d.imei,
    deviceType: 1,
    osVersion: '14',
    agentVersion: '2.4.1',
    ...(d.sim ? { sim: d.sim } : {}),
  });
  expect(res.status).toBe(201);
  const enrolled = res.body as EnrollResponse;
  return { id: (created.body as Device).id, imei: d.imei, token: enrolled.deviceToken, keys, enrolled };
}
