import { generate } from 'otplib';

/** A fixed authenticator secret for QA operators made by tests (createOperator(..., { totpSecret })). */
export const OPS_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

const STEP_S = 30;
/** The last time step handed out per operator (secret + who): the server refuses a step twice. */
const lastStep = new Map<string, number>();

/**
 * A code of the secret the server will accept once more for this operator (`who`: the operator's
 * name when several share a secret). Codes are single-use per operator (the server keeps the last
 * time step), so a second sign-in within 30 s gets the next step's code, which the server accepts as
 * one step of clock drift; a third waits for the clock.
 */
export async function totpNow(secret = OPS_TOTP_SECRET, who = ''): Promise<string> {
  const key = `${secret}:${who}`;
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
