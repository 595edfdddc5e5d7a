/**
 * An agent over real HTTP, for tests against a listening portal (the e2e suite): each request
 * signed by the agent's key as a device signs it, and a minimal long-poll loop that acknowledges
 * every command it receives.
 */
import type { CheckinResponse, EnrollResponse } from '../../shared/contracts/agent';
import { newAgentKeys, signRequest, type AgentKeys } from '../../server/agent/requestSignature';

export interface HttpAgent {
  token: string;
  keys: AgentKeys;
}

/** A POST to the agent API as the agent sends it: its bearer token, `body` exactly as sent, signed by its key. */
export async function agentPost(url: string, agent: HttpAgent, path: string, body: string, signal?: AbortSignal) {
  const signed = await signRequest(agent.keys.privateKey, { method: 'POST', path, body });
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${agent.token}`, ...signed },
    body,
    signal,
  });
}

/**
 * A device's agent enrolling with an enrollment code (a QR code's short code) and the public half
 * of a new key, then checking in once, as the app does; its identity for the requests that follow.
 */
export async function enrollAgent(url: string, enrollmentToken: string, imei: string): Promise<HttpAgent> {
  const keys = await newAgentKeys();
  const enrolled = await fetch(`${url}/agent/v1/enroll`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ enrollmentToken, imei, deviceType: 1, osVersion: '14', agentVersion: '2.4.1', publicKey: keys.publicJwk }),
  });
  if (enrolled.status !== 201) throw new Error(`enroll answered ${enrolled.status}: ${await enrolled.text()}`);
  const agent = { token: ((await enrolled.json()) as EnrollResponse).deviceToken, keys };
  const checkin = await agentPost(url, agent, '/agent/v1/checkin', '{}');
  if (checkin.status !== 200) throw new Error(`check-in answered ${checkin.status}`);
  return agent;
}

/** A minimal agent: long-poll check-ins, each command acknowledged after `delayMs`; the commands it received. */
export function runAgent(url: string, agent: HttpAgent, delayMs: number) {
  const stop = new AbortController();
  const received: { id: number; action: number }[] = [];
  const loop = (async () => {
    while (!stop.signal.aborted) {
      try {
        const res = await agentPost(url, agent, '/agent/v1/checkin', JSON.stringify({ wait: 20 }), stop.signal);
        const answer = (await res.json()) as CheckinResponse;
        for (const c of answer.commands ?? []) {
          if (received.some((r) => r.id === c.id)) continue;
          received.push({ id: c.id, action: c.action });
          await new Promise((r) => setTimeout(r, delayMs));
          await agentPost(url, agent, `/agent/v1/commands/${c.id}/ack`, '{}', stop.signal);
        }
      } catch {
        if (!stop.signal.aborted) await new Promise((r) => setTimeout(r, 200));
      }
    }
  })();
  return {
    received,
    async stop() {
      stop.abort();
      await loop;
    },
  };
}
