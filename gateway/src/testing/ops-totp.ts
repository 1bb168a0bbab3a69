import { generate } from 'otplib';

/** A fixed authenticator secret for QA operators made by tests (createOperator(..., { totpSecret })). */
export const OPS_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

const STEP_S = 30;
/** The last time step handed out per key: the server refuses a step twice for an operator. */
const lastStep = new Map<string, number>();

/**
 * A code of `secret` the server will accept once more for the operator `key` stands for. Codes are
 * single-use per operator (the server keeps the last time step), so a second sign-in within 30 s gets
 * the next step's code, which the server accepts as one step of clock drift; a third waits for the clock.
 */
async function nextCode(secret: string, key: string): Promise<string> {
  for (;;) {
    const now = Math.floor(Date.now() / 1000 / STEP_S);
    const step = Math.max(now, (lastStep.get(key) ?? -1) + 1);
    if (step <= now + 1) {
      lastStep.set(key, step);
      return generate({ secret, epoch: step * STEP_S });
    }
    await new Promise((r) => setTimeout(r, ((now + 1) * STEP_S * 1000) - Date.now() + 50));
  }
}

/** The current code of an authenticator secret of one operator (one enrolled by enrolOperatorTotp). */
export function totpNow(secret: string): Promise<string> {
  return nextCode(secret, secret);
}

/**
 * The current code of the shared QA secret (OPS_TOTP_SECRET) for the operator `username` of the portal at
 * `server` (its base URL). Steps are counted per operator of each portal, as the server counts them (in
 * its database): operators sharing the secret do not wait on each other's codes (one shared count made a
 * file that signs in six operators wait two minutes for the clock), and neither do the same username on
 * two portals: the services suite runs many files in one process (isolate: false), and a count kept by
 * username alone made a production fixture's "admin" on a second portal wait up to a minute for the clock.
 */
export function opsTotp(username: string, server: string): Promise<string> {
  return nextCode(OPS_TOTP_SECRET, `${OPS_TOTP_SECRET}:${server}:${username}`);
}

async function post(baseUrl: string, path: string, body: unknown, token: string) {
  const r = await fetch(baseUrl + path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  return { status: r.status, json: (await r.json().catch(() => null)) as { value?: unknown } | null };
}

/**
 * Enrol the signed-in operator's authenticator (after any password change), as the console does:
 * setup, then confirm with a code of the new secret. Returns the secret for later logins.
 */
export async function enrolOperatorTotp(baseUrl: string, token: string): Promise<string> {
  const setup = await post(baseUrl, '/ops/api/session/totp/setup', {}, token);
  if (setup.status !== 200) throw new Error(`totp setup: ${setup.status} ${JSON.stringify(setup.json)}`);
  const { secret } = setup.json!.value as { secret: string };
  const confirm = await post(baseUrl, '/ops/api/session/totp/confirm', { code: await totpNow(secret) }, token);
  if (confirm.status !== 200) throw new Error(`totp confirm: ${confirm.status} ${JSON.stringify(confirm.json)}`);
  return secret;
}
