import { generate } from 'otplib';

/** A fixed authenticator secret for QA operators made by tests (createOperator(..., { totpSecret })). */
export const OPS_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

/** The current code of a secret (what the operator's authenticator app shows). */
export const totpNow = (secret = OPS_TOTP_SECRET) => generate({ secret });

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
