import type { z } from 'zod';
import type { ZBotChallengeValue, ZLoginBody, ZVerifyBody } from '@portal/contracts/api/auth';

export type { TLoginValue, TMemberInfo } from '@portal/contracts/api/auth';
/** GET /wps/botcheck: background with the hole, its width and the piece's row. */
export type TBotChallenge = z.infer<typeof ZBotChallengeValue>;
/** POST /wps/session/login body as the client sends it. */
export type TLoginRequest = z.input<typeof ZLoginBody>;
/** Second-step methods the server may offer. */
export type TSecondStepMethod = z.infer<typeof ZVerifyBody>['method'];
