import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';

/** GET /wps/captcha: a key and its image (data URL); the answer goes back as captcha + captchaKey. */
export function getCaptcha() {
  return call(authCalls.captcha, { query: {} });
}
