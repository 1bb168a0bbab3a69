import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { GRABS_IN_FLIGHT_PER_SOCKET, ZSocketGrabRequest, type TSocketGrabReply } from '@portal/contracts/api/red-envelopes';
import { ZHandshakeAuth } from '@portal/contracts/events/events';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { authorize, errorBody, zodDetails } from '../../app/http.ts';
import { withRequestId } from '../../obs/request-id.ts';
import { socketCallDuration } from '../../obs/metrics.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import type { SocketSession } from '../sessions/session-store.ts';
import type { SocketHook } from '../../realtime/realtime.ts';
import type { RedEnvelopes } from './red-envelopes-service.ts';

export type SocketGrabDeps = {
  envelopes: Pick<RedEnvelopes, 'grab'>;
  merchants: { resolve(input: { code?: string | undefined }): Promise<Merchant | null> };
  sessions: { resolveForSocket(token: string): Promise<SocketSession | null> };
  /** The HTTP gate's maintenance and region check (system-routes.ts assertSystemOpen), from the socket's handshake request. */
  assertOpen(merchant: Merchant, req: IncomingMessage): void;
  log: { warn(obj: unknown, msg?: string): void };
};

/**
 * `envelope:grab` over the page's socket (contracts api/red-envelopes.ts, ZSocketGrabRequest): the
 * grab of POST /wps/envelopes/:id/grab without an HTTP request per grab. Every grab is authorized
 * again as an HTTP call would be: the socket's session is read from the database (batched with other
 * sockets' in one statement, sessions.resolveForSocket: revoked, expired, idle, disabled or past its
 * RG session limit is UNAUTHORIZED), a trial session is TRIAL_FORBIDDEN, one whose password must change
 * first PASSWORD_CHANGE_REQUIRED, maintenance and a restricted
 * region answer as over HTTP; RG exclusion and the envelope's own rules are checked by the grab itself.
 * Each grab gets a request id (`sg-<uuid>`) carried into the events it commits, and is counted in
 * portal_socket_call_duration_seconds{call, outcome}. A socket has at most GRABS_IN_FLIGHT_PER_SOCKET
 * grabs unanswered; a grab sent without an ack costs the socket its connection.
 */
export function socketGrab(deps: SocketGrabDeps): SocketHook {
  return {
    events: ['envelope:grab'],
    attach(socket) {
      let inFlight = 0;
      // The handshake's token, read once: it is the socket's for as long as it lives (handshake middleware checked it).
      const handshake = ZHandshakeAuth.safeParse(socket.handshake.auth ?? {});
      const token = handshake.success ? handshake.data.token : undefined;
      socket.on('envelope:grab', async (req: unknown, ack: unknown) => {
        if (typeof ack !== 'function') {
          socket.disconnect(true);
          return;
        }
        const timer = socketCallDuration.startTimer({ call: 'envelope:grab' });
        const reply = (r: TSocketGrabReply) => {
          timer({ outcome: r.success ? 'ok' : r.code });
          (ack as (r: TSocketGrabReply) => void)(r);
        };
        if (inFlight >= GRABS_IN_FLIGHT_PER_SOCKET) return reply(errorBody(new AppError(ErrorCode.TOO_MANY_REQUESTS)));
        inFlight++;
        try {
          reply({ success: true, value: await grabFor(socket.data, token, socket.request, req) });
        } catch (err) {
          if (err instanceof AppError) return reply(errorBody(err));
          deps.log.warn({ err }, 'socket grab failed');
          reply(errorBody(new AppError(ErrorCode.INTERNAL)));
        } finally {
          inFlight--;
        }
      });
    },
  };

  async function grabFor(data: { memberId: number | null; merchantCode: string }, token: string | undefined, request: IncomingMessage, req: unknown) {
    const parsed = ZSocketGrabRequest.safeParse(req);
    if (!parsed.success) {
      throw new AppError(ErrorCode.VALIDATION, undefined, zodDetails(parsed.error));
    }
    if (data.memberId === null || !token) throw new AppError(ErrorCode.UNAUTHORIZED);
    const merchant = await deps.merchants.resolve({ code: data.merchantCode });
    if (!merchant) throw new AppError(ErrorCode.UNKNOWN_MERCHANT);
    deps.assertOpen(merchant, request);
    const session = await deps.sessions.resolveForSocket(token);
    // The session this socket was opened with, still alive, for the same member and merchant.
    if (!session || session.memberId !== data.memberId || session.merchantCode !== merchant.code) throw new AppError(ErrorCode.UNAUTHORIZED);
    // The rest of what an HTTP call of the grab is refused for (a trial session; a session whose password
    // must change first writes nothing else, password-change-gate.ts): the same policy.
    authorize({ auth: true }, { session, merchant });
    if (session.passwordChangeRequired) throw new AppError(ErrorCode.PASSWORD_CHANGE_REQUIRED);
    const envelopeId = Number(parsed.data.envelopeId);
    if (!Number.isSafeInteger(envelopeId)) throw new AppError(ErrorCode.NOT_FOUND);
    return withRequestId(`sg-${randomUUID()}`, () => deps.envelopes.grab(merchant, session.memberId, envelopeId));
  }
}
