-- Live chat (contracts/src/api/chat.ts): one chat per member with the merchant's operators, and its
-- messages. Unread counts are kept on the chat for each side, so the lists and badges need no count
-- over the messages.
CREATE TABLE chats (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  member_id bigint NOT NULL UNIQUE REFERENCES members(id),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  -- the operator who answered first (took the chat)
  operator_id bigint REFERENCES operators(id),
  last_message_at timestamptz,
  unread_member integer NOT NULL DEFAULT 0 CHECK (unread_member >= 0),
  unread_ops integer NOT NULL DEFAULT 0 CHECK (unread_ops >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz,
  CHECK ((status = 'closed') = (closed_at IS NOT NULL))
);
CREATE INDEX chats_merchant_activity ON chats (merchant_code, last_message_at DESC NULLS LAST);

CREATE TABLE chat_messages (
  id bigserial PRIMARY KEY,
  chat_id bigint NOT NULL REFERENCES chats(id),
  sender text NOT NULL CHECK (sender IN ('member', 'operator')),
  operator_id bigint REFERENCES operators(id),
  body text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 1000),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((sender = 'operator') = (operator_id IS NOT NULL))
);
CREATE INDEX chat_messages_chat ON chat_messages (chat_id, id DESC);

-- The demo's LIVECHAT link pointed at a site that does not exist: it opens the in-portal chat room
-- now (the seed writes the same), with the module on for the merchants that had it.
UPDATE merchants SET module_flags = module_flags || '{"LIVECHAT3": true}'::jsonb
  WHERE code IN (SELECT merchant_code FROM customer_service WHERE cs_type = 'LIVECHAT' AND url = 'https://luckypeso.example/chat');
UPDATE customer_service SET url = '/?chat=open' WHERE cs_type = 'LIVECHAT' AND url = 'https://luckypeso.example/chat';
