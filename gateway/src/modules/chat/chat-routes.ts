import type { Express } from 'express';
import { chatCalls, opsChatCalls } from '@portal/contracts/api/chat';
import type { Db } from '../../db/db.ts';
import { mountCall } from '../../app/http.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { Merchant, MerchantDirectory } from '../merchants/merchant-directory.ts';
import type { Operators } from '../ops/operators.ts';
import { createOpsRouter } from '../ops/ops-router.ts';
import type { Chat } from './chat-service.ts';

/** The merchant's live chat module (LIVECHAT3): off, the player's calls and operators' replies are MODULE_DISABLED. */
function assertChatOn(m: Pick<Merchant, 'modules'>) {
  if (!m.modules.LIVECHAT3) throw new AppError(ErrorCode.MODULE_DISABLED);
}

/**
 * The player's live chat calls, inside the /wps router (merchant and session resolved). Each is a
 * member call: a guest is UNAUTHORIZED, a trial session TRIAL_FORBIDDEN (mountCall's authorize).
 */
export function mountChatRoutes(app: Express, deps: { chat: Chat }, opts: { checkResponses: boolean }) {
  const { chat } = deps;
  mountCall(app, chatCalls.modelList, async ({ ctx }) => {
    assertChatOn(ctx.merchant);
    return chat.desks(ctx.merchant.code, ctx.session!.memberId);
  }, opts);
  mountCall(app, chatCalls.launchChat, async ({ ctx }) => {
    assertChatOn(ctx.merchant);
    return chat.launch(ctx.merchant.code, ctx.session!.memberId);
  }, opts);
  mountCall(app, chatCalls.send, async ({ ctx, body }) => {
    assertChatOn(ctx.merchant);
    return chat.send(ctx.merchant.code, ctx.session!.memberId, body.body);
  }, opts);
  mountCall(app, chatCalls.history, async ({ ctx, query }) => {
    assertChatOn(ctx.merchant);
    return chat.history(ctx.merchant.code, ctx.session!.memberId, query.beforeId === undefined ? null : Number(query.beforeId), query.limit);
  }, opts);
  mountCall(app, chatCalls.read, async ({ ctx }) => {
    assertChatOn(ctx.merchant);
    return chat.read(ctx.merchant.code, ctx.session!.memberId);
  }, opts);
}

/** Operator live chat calls under /ops/api/chats, all with `chat.answer`; only the operator's merchant's chats. */
export function mountChatOps(app: Express, deps: { db: Db; chat: Chat; merchants: MerchantDirectory; operators: Operators; checkResponses: boolean }) {
  const ops = createOpsRouter(deps, { prefix: '/ops/api/chats' });
  ops.call(opsChatCalls.list, 'chat.answer', async ({ ctx, query }) => deps.chat.opsList(ctx.merchant.code, query));
  ops.call(opsChatCalls.messages, 'chat.answer', async ({ ctx, query, id }) =>
    deps.chat.opsThread(ctx.merchant.code, id, query.beforeId === undefined ? null : Number(query.beforeId)));
  ops.call(opsChatCalls.reply, 'chat.answer', async ({ ctx, body, id }) => {
    assertChatOn(ctx.merchant);
    return deps.chat.reply(ctx.operator, id, body.body);
  });
  ops.call(opsChatCalls.read, 'chat.answer', async ({ ctx, id }) => deps.chat.opsRead(ctx.operator, id));
  ops.call(opsChatCalls.close, 'chat.answer', async ({ ctx, id }) => deps.chat.close(ctx.operator, id));
  ops.mount(app);
}
